import { HttpClient } from '../support/http';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** Secrets stay where they belong, and a webhook URL is judged at creation as it is at delivery (docs/contracts/bounds.md). */
describe('secure by default', () => {
  let t: TestApp;
  let org: TestOrg;
  /** The same database served with production URL rules (WEBHOOK_ALLOW_INSECURE off). */
  let strict: HttpClient;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    org = await createOrg(t);
    const peer = await t.startPeer({ ROLES: 'api', WEBHOOK_ALLOW_INSECURE: 'false' });
    strict = new HttpClient(peer.baseUrl, { 'x-api-key': org.key });
  });
  afterAll(() => t?.close());

  const hook = { url: 'https://hooks.example.com/voice', events: ['call.ended'] };
  const createWith = (key: string) => org.api.post('/api/v1/webhooks', hook, { headers: { 'idempotency-key': key } });

  describe('an idempotent POST /webhooks', () => {
    it('replays the secret while it is live, and the idempotency table holds only its SHA-256', async () => {
      const first = await createWith('hook-live');
      expect(first.status).toBe(201);
      const replay = await createWith('hook-live');
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const stored = await t.db.query(`SELECT response_body::text AS body FROM idempotency_keys WHERE key = $1`, [
        'hook-live',
      ]);
      expect(stored.rows[0].body).not.toContain(first.body.data.secret);
      expect(stored.rows[0].body).not.toContain('whsec_');
      await org.api.delete(`/api/v1/webhooks/${first.body.data.id as string}`);
    });

    it('never reveals a secret that was rotated since: 409 CONFLICT', async () => {
      const first = await createWith('hook-rotated');
      const rotated = await org.api.post(`/api/v1/webhooks/${first.body.data.id as string}/rotate-secret`);
      expect(rotated.status).toBe(200);
      const replay = await createWith('hook-rotated');
      expect(replay.status).toBe(409);
      expect(replay.body.error.code).toBe('CONFLICT');
      expect(replay.text).not.toContain(first.body.data.secret);
      expect(replay.text).not.toContain(rotated.body.data.secret);
      await org.api.delete(`/api/v1/webhooks/${first.body.data.id as string}`);
    });

    it('never reveals the secret of a deleted endpoint: 409 CONFLICT', async () => {
      const first = await createWith('hook-deleted');
      expect((await org.api.delete(`/api/v1/webhooks/${first.body.data.id as string}`)).status).toBe(204);
      const replay = await createWith('hook-deleted');
      expect(replay.status).toBe(409);
      expect(replay.text).not.toContain(first.body.data.secret);
    });
  });

  describe('webhook URLs', () => {
    it('refuses credentials in the URL, even where insecure targets are allowed', async () => {
      for (const url of ['https://user:s3cr3t@hooks.example.com/x', 'http://token@127.0.0.1:9/x']) {
        const res = await org.api.post('/api/v1/webhooks', { ...hook, url });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain('url');
        expect(res.text).not.toContain('s3cr3t');
      }
    });

    it('refuses local names in any spelling and names that resolve to private addresses', async () => {
      // `vm` is in this machine's /etc/hosts as 127.0.0.1: resolved at creation, refused like delivery would.
      for (const url of [
        'https://localhost./x',
        'https://ｌｏｃａｌｈｏｓｔ/x',
        'https://api.localhost../x',
        'https://vm/x',
      ]) {
        const res = await strict.post('/api/v1/webhooks', { ...hook, url });
        expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'VALIDATION_ERROR']);
      }
      expect((await strict.post('/api/v1/webhooks', { ...hook, url: 'https://8.8.8.8/x' })).status).toBe(201);
    });
  });

  describe('abuse before authentication', () => {
    it('counts failed authentications and scope refusals per address: 429 past the budget, a valid key unaffected', async () => {
      const peer = await t.startPeer({ ROLES: 'api', AUTH_FAILURE_LIMIT_PER_MINUTE: '5' });
      const as = (key: string) => new HttpClient(peer.baseUrl, { 'x-api-key': key });
      const reader = await org.keyWith(['contacts:read']);
      const randomKey = () => `vc_test_${'A'.repeat(20)}${Math.random().toString(36).slice(2)}`;
      for (let i = 0; i < 4; i++) expect((await as(randomKey()).get('/api/v1/contacts')).status).toBe(401);
      expect((await as(reader.key).post('/api/v1/contacts', { title: 'x', phone: '+12025550100' })).status).toBe(403);
      const limited = await as(randomKey()).get('/api/v1/contacts');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await as(reader.key).post('/api/v1/contacts', { title: 'x', phone: '+12025550100' })).status).toBe(429);
      // The same address, a valid key: never locked out.
      expect((await as(org.key).get('/api/v1/contacts')).status).toBe(200);
      expect((await as(reader.key).get('/api/v1/contacts')).status).toBe(200);
    });
  });
});
