import { Socket, connect } from 'node:net';
import { createOrg, TestOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

const REQUEST_TIMEOUT_MS = 2000;

/** Everything a raw socket received until the server closed it. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

/**
 * How request bodies end (docs/operations.md, "HTTP bounds"): one delivered too slowly is cut at the request
 * timeout with a 408 in the envelope; one over 1 MiB is answered 413 and the connection closed only once the
 * answer could be read, so a `fetch` client sees the 413 rather than a reset (EPIPE, "other side closed").
 */
describe('request bodies: slow ones cut at the timeout, large ones answered 413 readably', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp({ env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  it('cuts a body that is still arriving after REQUEST_TIMEOUT_MS: 408 with the envelope, then the socket closes', async () => {
    const { port } = new URL(t.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = readUntilClosed(socket);
    socket.write(
      'POST /api/v1/contacts HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
        `x-api-key: ${org.key}\r\nContent-Length: 1000\r\n\r\n{"title":"`,
    );
    // A byte every 200 ms: the connection is never idle, only the request is never whole.
    const drip = setInterval(() => socket.writable && socket.write('a'), 200);
    const received = await closed;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: `request: not received in full within ${REQUEST_TIMEOUT_MS / 1000} s`,
      },
    });
    expect((await org.api.get('/api/v1/contacts')).body.data).toEqual([]);
  });

  // The cut is the request's deadline, not impatience: a body that arrives as slowly but whole in time is served.
  it('serves a body that arrives slowly but in full within REQUEST_TIMEOUT_MS', async () => {
    const { port } = new URL(t.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = readUntilClosed(socket);
    const body = JSON.stringify({ title: 'Slow but whole', phone: '+14155550199' });
    socket.write(
      'POST /api/v1/contacts HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nConnection: close\r\n' +
        `x-api-key: ${org.key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    // The same pace as above (a piece every 200 ms), three pieces: whole long before the deadline.
    const pieces = [body.slice(0, 10), body.slice(10, 20), body.slice(20)];
    for (const piece of pieces) {
      await new Promise((r) => setTimeout(r, 200));
      socket.write(piece);
    }
    const received = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
    expect((await org.api.get('/api/v1/contacts')).body.data).toEqual([
      expect.objectContaining({ title: 'Slow but whole' }),
    ]);
  });

  it.each([1024 * 1024 + 1, 3 * 1024 * 1024, 8 * 1024 * 1024])(
    'answers a %d-byte body sent by fetch with a readable 413 PAYLOAD_TOO_LARGE',
    async (size) => {
      const body = JSON.stringify({ title: 'x'.repeat(size), phone: '+14155550100' });
      const res = await fetch(`${t.baseUrl}/api/v1/contacts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': org.key },
        body,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
    },
  );

  it('answers 413 readably when the body is streamed without a Content-Length (chunked)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${t.baseUrl}/api/v1/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
