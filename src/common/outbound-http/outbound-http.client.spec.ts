import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { OutboundUrlPolicy } from '../url-safety/outbound-url-policy';
import { OutboundHttpClient } from './outbound-http.client';
import { signatureMac } from './signature';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A local receiver whose every request is answered by `handler`; counts requests (and bare connections). */
async function receiver(handler: Handler): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const client = (allowInsecure = true) =>
  new OutboundHttpClient({ name: 'test', socketsPerTenant: 2, policy: new OutboundUrlPolicy(allowInsecure) });
const request = (url: string, extra: Record<string, unknown> = {}) => ({
  url,
  body: '{"a":1}',
  headers: { 'content-type': 'application/json' },
  timeoutMs: 2000,
  tenant: 'org-1',
  keepBytes: 1024,
  ...extra,
});

describe('OutboundHttpClient', () => {
  beforeAll(() => Logger.overrideLogger(false));
  it('signs the exact body with the secret and returns the answer', async () => {
    let seen: IncomingMessage['headers'] = {};
    let raw = '';
    const r = await receiver((req, res, body) => {
      seen = req.headers;
      raw = body;
      res.writeHead(200).end('{"result":"ok"}');
    });
    const result = await client().post(request(r.url, { signing: { id: 'abc', secret: 'whsec_x' } }));
    await r.close();
    expect(result).toMatchObject({ statusCode: 200, body: '{"result":"ok"}', failure: null, error: null, attempts: 1 });
    expect(seen['x-webhook-id']).toBe('abc');
    const [t, v1] = String(seen['x-webhook-signature']).replace('t=', '').split(',v1=');
    expect(v1).toBe(signatureMac('whsec_x', raw, t).toString('hex'));
  });

  it('retries a connection broken before any answer, at most connectionAttempts times', async () => {
    const r = await receiver((req) => req.socket.destroy());
    const result = await client().post(request(r.url, { connectionAttempts: 3 }));
    await r.close();
    expect(result).toMatchObject({ failure: 'connection', statusCode: null, attempts: 3 });
    expect(r.requests).toBe(3);
  });

  it('never retries an answer, whatever it says', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end('no'));
    const result = await client().post(request(r.url, { connectionAttempts: 3 }));
    await r.close();
    expect(result).toMatchObject({ failure: 'status', statusCode: 500, attempts: 1 });
    expect(r.requests).toBe(1);
  });

  it('one deadline for the whole exchange: a receiver that hangs is a timeout', async () => {
    const r = await receiver(() => undefined);
    const started = Date.now();
    const result = await client().post(request(r.url, { timeoutMs: 300, connectionAttempts: 3 }));
    await r.close();
    expect(result).toMatchObject({ failure: 'timeout', attempts: 1 });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reads at most 64 KB: a longer answer is refused when asked, and the socket dropped', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      res.on('error', () => undefined);
      res.end(Buffer.alloc(5 * 1024 * 1024, 'a'));
    });
    const result = await client().post(request(r.url, { keepBytes: 64 * 1024, refuseLonger: true }));
    await r.close();
    expect(result).toMatchObject({ failure: 'too-large', statusCode: 200 });
    expect(result.body!.length).toBe(64 * 1024);
  });

  it('refuses a private address without sending anything under the production rules', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const result = await client(false).post(request(r.url.replace('http:', 'https:')));
    await r.close();
    expect(result).toMatchObject({ failure: 'refused', statusCode: null });
    expect(r.requests).toBe(0);
  });
});
