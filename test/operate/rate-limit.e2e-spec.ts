import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { HttpClient } from '../support/http';

/** RATE_LIMIT_PER_MINUTE=5: small enough to exhaust in a test, one budget per API key shared by every instance. */
describe('rate limits per API key', () => {
  let t: TestApp;
  let peer: HttpClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    peer = new HttpClient((await t.startPeer()).baseUrl);
  });
  afterAll(() => t.close());

  it('counts down in RateLimit headers, then answers 429 RATE_LIMITED with Retry-After', async () => {
    const org = await createOrg(t);
    for (let i = 1; i <= 5; i++) {
      const res = await org.api.get('/api/v1/contacts');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(5 - i));
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    const limited = await org.api.get('/api/v1/contacts');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.body.error.message).toContain('5 requests per minute');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-limit')).toBe('5');
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    // The budget is per key for the whole API, not per route.
    expect((await org.api.get('/api/v1/organization')).status).toBe(429);
  });

  it('gives each key its own budget', async () => {
    const org = await createOrg(t);
    for (let i = 0; i < 5; i++) expect((await org.api.get('/api/v1/contacts')).status).toBe(200);
    expect((await org.api.get('/api/v1/contacts')).status).toBe(429);
    const other = await org.keyWith(['*']);
    expect((await other.api.get('/api/v1/contacts')).status).toBe(200);
  });

  it('shares one budget across instances (the counter lives in Redis)', async () => {
    const org = await createOrg(t);
    const onPeer = peer.withHeaders({ 'x-api-key': org.key });
    expect((await org.api.get('/api/v1/contacts')).status).toBe(200);
    expect((await onPeer.get('/api/v1/contacts')).status).toBe(200);
    expect((await org.api.get('/api/v1/contacts')).status).toBe(200);
    const fourth = await onPeer.get('/api/v1/contacts');
    expect(fourth.headers.get('ratelimit-remaining')).toBe('1');
    expect((await org.api.get('/api/v1/contacts')).status).toBe(200);
    expect((await onPeer.get('/api/v1/contacts')).status).toBe(429);
    expect((await org.api.get('/api/v1/contacts')).status).toBe(429);
  });

  it('never limits health checks, the admin API or unauthenticated requests', async () => {
    for (let i = 0; i < 8; i++) {
      const health = await t.anonymous.get('/health/live');
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit-limit')).toBeNull();
      expect((await t.admin.post('/admin/v1/organizations', { name: 'Not limited' })).status).toBe(201);
      // A bad key is refused by authentication, never counted against anyone.
      expect((await t.anonymous.get('/api/v1/contacts', { headers: { 'x-api-key': 'nope' } })).status).toBe(401);
    }
  });
});
