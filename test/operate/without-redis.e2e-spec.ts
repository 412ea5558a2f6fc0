import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** REDIS_URL unset: queues on PostgreSQL, and the rate limit falls back to counting in this process's memory. */
describe('operating without Redis', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ postgresQueues: true, env: { RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => t.close());

  it('still limits each key, in memory', async () => {
    const org = await createOrg(t);
    expect((await org.api.get('/api/v1/contacts')).headers.get('ratelimit-remaining')).toBe('1');
    expect((await org.api.get('/api/v1/contacts')).status).toBe(200);
    const limited = await org.api.get('/api/v1/contacts');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('serves the queue dashboard on PostgreSQL queues too', async () => {
    expect((await t.anonymous.get('/admin/queues/api/queues')).status).toBe(401);
    const res = await t.admin.get('/admin/queues/api/queues');
    expect(res.status).toBe(200);
    expect(res.body.queues.length).toBeGreaterThan(0);
  });
});
