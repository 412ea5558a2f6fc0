import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { closeBehindProxy, expectUnavailable, peerBehindProxy, recovered } from './support/outage';
import { TcpProxy } from './support/tcp-proxy';

/**
 * PostgreSQL briefly unreachable: an API instance whose database connections go through a proxy the test can cut
 * answers 503 SERVICE_UNAVAILABLE with the error envelope while it is cut, and serves again once it is restored,
 * without a restart. (The shared PostgreSQL itself is never touched.)
 */
describe('faults: PostgreSQL briefly unreachable', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let api: HttpClient;

  beforeAll(async () => {
    t = await startTestApp();
    ({ proxy, api } = await peerBehindProxy(t, 'DATABASE_URL', t.databaseUrl));
  });
  afterAll(() => closeBehindProxy(t, proxy));

  const contact = (n: number) => ({ title: `Outage ${n}`, phone: `+1415558${String(n).padStart(4, '0')}` });

  it('answers 503 with the envelope while the database is cut, then recovers without a restart', async () => {
    expect((await api.post('/api/v1/contacts', contact(1))).status).toBe(201);
    expect((await api.get('/api/v1/contacts')).status).toBe(200);

    await proxy.cut();
    // Both a pooled connection that was dropped and a new one that is refused must read as "unavailable".
    for (const res of [
      await api.get('/api/v1/contacts'),
      await api.post('/api/v1/contacts', contact(2)),
      await api.get('/api/v1/calls'),
    ]) {
      expectUnavailable(res);
    }

    await proxy.restore();
    expect((await recovered(api, '/api/v1/contacts')).status).toBe(200);
    expect((await api.post('/api/v1/contacts', contact(3))).status).toBe(201);
    const titles = (await api.get('/api/v1/contacts')).body.data.map((c: { title: string }) => c.title).sort();
    // The write attempted during the outage left nothing behind.
    expect(titles).toEqual(['Outage 1', 'Outage 3']);
  });
});
