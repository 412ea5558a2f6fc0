import { TEST_REDIS_URL } from '../support/databases';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { closeBehindProxy, expectUnavailable, peerBehindProxy, recovered } from './support/outage';
import { TcpProxy } from './support/tcp-proxy';

/**
 * Redis briefly unreachable: an API instance whose Redis connections (rate-limit counters, queues) go through a
 * proxy the test can cut answers every API-key request 503 SERVICE_UNAVAILABLE with `Retry-After`, never 500 and
 * never a hang, and serves again once the proxy is back, without a restart. The shared Redis is never touched.
 */
describe('faults: Redis briefly unreachable', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let api: HttpClient;

  beforeAll(async () => {
    t = await startTestApp();
    ({ proxy, api } = await peerBehindProxy(t, 'REDIS_URL', TEST_REDIS_URL));
  });
  afterAll(() => closeBehindProxy(t, proxy));

  const contact = (n: number) => ({ title: `Redis outage ${n}`, phone: `+1415557${String(n).padStart(4, '0')}` });

  it('answers 503 with Retry-After on every API-key request while Redis is cut, then recovers', async () => {
    expect((await api.post('/api/v1/contacts', contact(1))).status).toBe(201);

    await proxy.cut();
    for (const res of [
      await api.get('/api/v1/contacts'),
      await api.post('/api/v1/contacts', contact(2)),
      await api.get('/api/v1/calls'),
      await api.get('/api/v1/organization'),
    ]) {
      expectUnavailable(res);
    }

    await proxy.restore();
    expect((await recovered(api, '/api/v1/contacts')).status).toBe(200);
    expect((await api.post('/api/v1/contacts', contact(3))).status).toBe(201);
  });
});
