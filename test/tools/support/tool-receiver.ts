import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ToolRequest {
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  body: any;
}

/** How a path answers: a JSON result, a hang, an error status, a non-JSON body, or a body of `bytes` bytes. */
export type ToolBehaviour =
  { result: unknown } | { hang: true } | { status: number } | { text: string } | { bytes: number };

/**
 * A customer's function-tool server on 127.0.0.1, as strict as a real one: it records each request with its raw
 * body and answers as the path's behaviour says.
 */
export class ToolReceiver {
  readonly received: ToolRequest[] = [];
  private readonly behaviours = new Map<string, ToolBehaviour>();
  private readonly held: ServerResponse[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  on(path: string, behaviour: ToolBehaviour): string {
    this.behaviours.set(path, behaviour);
    return `${this.url}${path}`;
  }

  requests(path: string): ToolRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      this.received.push({ path, headers: req.headers, rawBody, body: JSON.parse(rawBody) });
      const behaviour = this.behaviours.get(path) ?? { status: 404 };
      if ('hang' in behaviour) {
        this.held.push(res);
        return;
      }
      if ('result' in behaviour) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: behaviour.result }));
      } else if ('status' in behaviour) {
        res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{"error":"boom"}');
      } else if ('text' in behaviour) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(behaviour.text);
      } else {
        // A huge answer, streamed: the client must stop reading long before the end.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < behaviour.bytes && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
      }
    });
  }
}

/** The signature check a receiver does (docs/tools.md): HMAC-SHA256 of "<t>.<raw body>" with the tool's secret. */
export function signedBy(request: ToolRequest, secret: string): boolean {
  const header = String(request.headers['x-webhook-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${request.rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
