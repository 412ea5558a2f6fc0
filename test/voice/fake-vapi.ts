import type { Vapi } from '@vapi-ai/server-sdk';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON; for POST /call, the body our adapter sent (typed as what Vapi accepts). */
  body: Vapi.CreateCallDto | null;
  /** The Vapi call id it was answered with (accepted POST /call only). */
  accepted?: string;
}

/**
 * A stand-in for Vapi's REST API on 127.0.0.1, speaking its wire format as typed by Vapi's own SDK
 * (@vapi-ai/server-sdk): POST /call takes a CreateCallDto and answers 201 with a Call (`status: queued`),
 * GET /call/{id} serves the Call as last set, errors come as `{ statusCode, message, error }`. Tests queue
 * failures and set what GET reports.
 */
export class FakeVapi {
  readonly requests: RecordedRequest[] = [];
  /** Calls as GET /call/{id} reports them; a missing id is a 404. */
  readonly calls = new Map<string, Vapi.Call>();
  private failures: Array<{ status: number; message: string }> = [];
  private server!: Server;
  url = '';

  static async start(): Promise<FakeVapi> {
    const fake = new FakeVapi();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The next POST /call requests answer with these statuses, in order. */
  failNext(...failures: Array<{ status: number; message: string }>): void {
    this.failures.push(...failures);
  }

  createCalls(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/call');
  }

  /** Waits for the POST /call whose assistant metadata names our call. */
  async createCallFor(callId: string, timeoutMs = 10_000): Promise<{ request: RecordedRequest; vapiCallId: string }> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const request = this.createCalls().find((r) => r.body?.assistant?.metadata?.callId === callId && r.accepted);
      if (request) return { request, vapiCallId: request.accepted! };
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no accepted POST /call for ${callId}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: text ? JSON.parse(text) : null,
    };
    this.requests.push(record);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== 'Bearer test-vapi-key') {
      return send(401, {
        statusCode: 401,
        message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
        error: 'Unauthorized',
      });
    }
    if (record.method === 'POST' && record.path === '/call' && record.body) {
      const failure = this.failures.shift();
      if (failure)
        return send(failure.status, { statusCode: failure.status, message: failure.message, error: 'Error' });
      const now = new Date().toISOString();
      const { phoneNumberId, customer, assistant, assistantOverrides } = record.body;
      const call: Vapi.Call = {
        id: randomUUID(),
        orgId: 'fake-org',
        type: 'outboundPhoneCall',
        status: 'queued',
        phoneNumberId,
        customer,
        assistant,
        assistantOverrides,
        createdAt: now,
        updatedAt: now,
      };
      this.calls.set(call.id, call);
      record.accepted = call.id;
      return send(201, call);
    }
    const match = /^\/call\/([^/]+)$/.exec(record.path);
    if (record.method === 'GET' && match) {
      const call = this.calls.get(decodeURIComponent(match[1]));
      return call ? send(200, call) : send(404, { statusCode: 404, message: 'Not Found', error: 'Not Found' });
    }
    send(404, { statusCode: 404, message: `Cannot ${record.method} ${record.path}`, error: 'Not Found' });
  }
}
