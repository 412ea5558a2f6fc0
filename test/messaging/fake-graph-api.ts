import type { CreateMessagePayload, WhatsappError } from '@great-detail/whatsapp' with { 'resolution-mode': 'import' };
import { AddressInfo } from 'node:net';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import type { GraphSendBody } from '../../src/modules/messaging/providers/whatsapp/whatsapp-graph.types';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** What our adapter sent, typed as the Cloud API's send body. */
  body: GraphSendBody;
}

/** A reply in the Cloud API's wire format, typed by the same SDK as the adapter. */
export type FakeReply =
  | { status: 200; body: Omit<CreateMessagePayload, 'error'> }
  | { status: number; body: { error: WhatsappError & { fbtrace_id: string } } };

/**
 * A local stand-in for the WhatsApp Cloud API (Graph API): records every request and answers in the real wire
 * format — `{messaging_product, contacts, messages: [{id}]}` on success, `{error: {message, type, code,
 * error_data, fbtrace_id}}` on failure. Tests queue a reply with `failNext`.
 */
export class FakeGraphApi {
  readonly requests: RecordedRequest[] = [];
  private readonly queued: FakeReply[] = [];
  private server?: Server;
  private counter = 0;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const body = raw ? JSON.parse(raw) : undefined;
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const reply = this.queued.shift() ?? this.success(body);
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next request gets a Graph API error with this code. */
  failNext(code: number, message: string, status = 400): void {
    this.queued.push({
      status,
      body: {
        error: {
          message: `(#${code}) ${message}`,
          type: 'OAuthException',
          code,
          error_data: { messaging_product: 'whatsapp', details: message },
          fbtrace_id: 'AbCdEfGh123',
        },
      },
    });
  }

  lastRequest(): RecordedRequest {
    return this.requests[this.requests.length - 1];
  }

  private success(body: GraphSendBody | undefined): FakeReply {
    this.counter += 1;
    const id = `wamid.HBgL${String(this.counter).padStart(6, '0')}FAKE`;
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: body?.to ?? '', wa_id: body?.to ?? '' }],
        messages: [{ id, message_status: 'accepted' }],
      },
    };
  }
}
