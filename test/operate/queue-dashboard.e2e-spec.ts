import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { QueueName } from '../../src/infra/queue/queue-names';

describe('queue dashboard (Bull Board) at /admin/queues', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses requests without the admin token, or with a wrong one, with the 401 envelope', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const none = await t.anonymous.get(path);
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('UNAUTHORIZED');
      const wrong = await t.anonymous.get(path, { headers: { authorization: 'Bearer not-the-token' } });
      expect(wrong.status).toBe(401);
      // An API key is not an admin credential.
      const apiKey = await t.anonymous.get(path, { headers: { 'x-api-key': ADMIN_TOKEN } });
      expect(apiKey.status).toBe(401);
    }
  });

  it('serves the board and lists every queue with the token', async () => {
    const page = await t.admin.get('/admin/queues');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const api = await t.admin.get('/admin/queues/api/queues');
    expect(api.status).toBe(200);
    const names = (api.body.queues as Array<{ name: string }>).map((q) => q.name).sort();
    expect(names).toEqual(Object.values(QueueName).sort());
  });

  it('does not exist when no ADMIN_TOKEN is configured', async () => {
    const peer = await t.startPeer({ ADMIN_TOKEN: '' });
    const res = await fetch(`${peer.baseUrl}/admin/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(404);
  });
});
