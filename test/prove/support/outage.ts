import { createOrg } from '../../support/factory';
import { HttpClient, HttpResponse } from '../../support/http';
import { TestApp } from '../../support/test-app';
import { TcpProxy } from './tcp-proxy';

/** The answers every API-key request gets while a backing service is cut: 503 in the envelope with Retry-After. */
export function expectUnavailable(res: HttpResponse): void {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
  expect(res.headers.get('retry-after')).toBe('1');
}

/** Asks `path` until it answers 200 (the service reconnected by itself), at most `attempts` times 250 ms apart. */
export async function recovered(api: HttpClient, path: string, attempts = 40): Promise<HttpResponse> {
  let res = await api.get(path);
  for (let i = 0; i < attempts && res.status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 250));
    res = await api.get(path);
  }
  return res;
}

/**
 * An API-only peer of `t` whose connections to one backing service (`variable` = its URL) go through a TCP proxy
 * the test can cut and restore, and a client with a key of a fresh organization made on the main instance.
 */
export async function peerBehindProxy(
  t: TestApp,
  variable: 'DATABASE_URL' | 'REDIS_URL',
  url: string,
): Promise<{ proxy: TcpProxy; api: HttpClient }> {
  const target = new URL(url);
  const port = Number(target.port || (variable === 'REDIS_URL' ? 6379 : 5432));
  const proxy = await new TcpProxy(target.hostname, port).start();
  const peer = await t.startPeer({ [variable]: proxy.url(url), ROLES: 'api' });
  const org = await createOrg(t);
  return { proxy, api: new HttpClient(peer.baseUrl, { 'x-api-key': org.key }) };
}

/** Teardown for peerBehindProxy: the proxy is restored first so the apps close cleanly. */
export async function closeBehindProxy(t: TestApp | undefined, proxy: TcpProxy | undefined): Promise<void> {
  await proxy?.restore().catch(() => undefined);
  await t?.close();
  await proxy?.stop();
}
