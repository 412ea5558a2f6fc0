import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { OutboundUrlPolicy } from '../url-safety/outbound-url-policy';
import { pinnedGet } from './pinned-get';

describe('pinnedGet', () => {
  let server: Server;
  let port: number;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.headers.authorization} ${req.url}`);
      if (req.url === '/moved') return res.writeHead(302, { location: '/file' }).end();
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '4' }).end('abcd');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const production = new OutboundUrlPolicy(false);
  const ownNetwork = new OutboundUrlPolicy(false, ['127.0.0.0/8']);
  const get = (url: string, policy: OutboundUrlPolicy) =>
    pinnedGet(url, { headers: { authorization: 'Bearer t' }, policy, timeoutMs: 2000 });

  it('streams the answer of an allowed address, and follows no redirect', async () => {
    const answer = await get(`http://127.0.0.1:${port}/file`, ownNetwork);
    if (!answer.ok) throw new Error(answer.error);
    expect(answer.response.statusCode).toBe(200);
    expect(answer.response.headers['content-type']).toBe('image/jpeg');
    const chunks: Buffer[] = [];
    for await (const chunk of answer.response) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('abcd');
    const moved = await get(`http://127.0.0.1:${port}/moved`, ownNetwork);
    expect(moved.ok && moved.response.statusCode).toBe(302);
    if (moved.ok) moved.response.destroy();
    expect(seen).toEqual(['Bearer t /file', 'Bearer t /moved']);
  });

  it('judges the address the connection resolves, not a check made before: a name for loopback is refused', async () => {
    seen.length = 0;
    // https to a name: allowed by protocol, so only the connect-time lookup can refuse it.
    const answer = await get(`https://localhost:${port}/file`, production);
    expect(answer).toMatchObject({ ok: false, failure: 'refused' });
    expect(seen).toEqual([]);
  });

  it('refuses http outside the private networks, a private literal address, and credentials in the URL', async () => {
    seen.length = 0;
    expect(await get(`http://127.0.0.1:${port}/file`, production)).toMatchObject({ ok: false, failure: 'refused' });
    expect(await get(`https://10.1.2.3/file`, production)).toMatchObject({ ok: false, failure: 'refused' });
    expect(await get(`http://u:p@127.0.0.1:${port}/file`, ownNetwork)).toMatchObject({ ok: false, failure: 'refused' });
    expect(await get('not a url', ownNetwork)).toMatchObject({ ok: false, failure: 'refused' });
    expect(seen).toEqual([]);
  });
});
