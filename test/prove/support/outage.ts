import { HttpClient, HttpResponse } from '../../support/http';

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
