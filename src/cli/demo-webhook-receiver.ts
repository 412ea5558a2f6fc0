import { timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { Logger } from '@nestjs/common';
import { signatureMac } from '../common/outbound-http/signature';

/** Looks up the endpoints (id and signing secret) whose URL is the one a request came to. */
export type SecretsFor = (url: string) => Promise<Array<{ id: string; secret: string }>>;

const MAX_BODY_BYTES = 1024 * 1024;

/** The endpoint whose secret signed the delivery: which subscription it came through, when several share a URL. */
function signer(
  raw: string,
  header: string | undefined,
  endpoints: Array<{ id: string; secret: string }>,
): string | undefined {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return endpoints.find(({ secret }) => {
    const expected = signatureMac(secret, raw, parts.t);
    return given.length === expected.length && timingSafeEqual(given, expected);
  })?.id;
}

/**
 * The demo's built-in webhook receiver (http://127.0.0.1:<port>/<anything>): it answers 200 and logs one line
 * per delivery, with the event, the endpoint whose secret signed it (two endpoints on one URL each get their own
 * delivery: the line says which), its X-Webhook-Id and whether the signature verifies, so a newcomer sees
 * webhooks work without a tunnel or a second program.
 */
export async function startDemoWebhookReceiver(port: number, secretsFor: SecretsFor): Promise<Server> {
  const logger = new Logger('WebhookReceiver');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      void secretsFor(`http://127.0.0.1:${port}${req.url ?? '/'}`)
        .then((endpoints) => {
          let event = '?';
          try {
            event = String((JSON.parse(raw) as { event?: unknown }).event);
          } catch {
            // Not JSON: logged as "?" below.
          }
          const endpoint = signer(raw, req.headers['x-webhook-signature'] as string | undefined, endpoints);
          logger.log(
            `received ${event}${endpoint ? ` for endpoint ${endpoint}` : ''} on ${req.url} ` +
              `(X-Webhook-Id ${String(req.headers['x-webhook-id'])}, signature ${endpoint ? 'valid' : 'NOT valid'})`,
          );
        })
        .finally(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}
