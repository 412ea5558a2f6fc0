import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '../infra/config/app-config';

/**
 * The headers a helmet middleware sets, read once by running it against a response that records them (none of
 * this configuration depends on the request: no nonce, no function). Set on Fastify's reply, they go out with the
 * response's other headers in one write instead of a dozen validated `setHeader` calls on the raw response per
 * request. What helmet removes (`X-Powered-By`) is left out: at `onRequest` nothing has set it yet, and nothing
 * in the server sets it later.
 */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: () => undefined,
  };
  let failed: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failed = error));
  if (failed) throw failed;
  return headers;
}

/**
 * Security headers on every response (helmet). The API itself serves JSON, so the Content-Security-Policy
 * matters only for the two HTML pages we serve: Swagger UI at /docs and the queue dashboard at /admin/queues.
 * Both need inline styles and bootstrap scripts, and Swagger UI shows data: images, so those are allowed while
 * everything still loads from our own origin only.
 */
export function applySecurityHeaders(app: NestFastifyApplication, config: AppConfig): void {
  // Built once: @fastify/helmet rebuilt this middleware (and re-parsed the policy) for every request, a visible
  // share of the CPU profile under load; the headers never vary per request here, so they are read from it once.
  const setHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Plain-HTTP deployments behind a TLS-terminating proxy stay usable: no forced upgrade of requests.
        upgradeInsecureRequests: null,
      },
    },
  });
  const headers = headersOf(setHeaders);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
  // CORS is off unless origins are listed: the API is called server-to-server with a secret key.
  if (config.corsOrigins.length) {
    app.enableCors({
      origin: config.corsOrigins,
      exposedHeaders: [
        'x-request-id',
        'retry-after',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'idempotent-replayed',
      ],
    });
  }
}
