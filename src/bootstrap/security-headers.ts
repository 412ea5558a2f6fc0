import helmet from 'helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '../infra/config/app-config';

/**
 * Security headers on every response (helmet). The API itself serves JSON, so the Content-Security-Policy
 * matters only for the two HTML pages we serve: Swagger UI at /docs and the queue dashboard at /admin/queues.
 * Both need inline styles and bootstrap scripts, and Swagger UI shows data: images, so those are allowed while
 * everything still loads from our own origin only.
 */
export function applySecurityHeaders(app: NestFastifyApplication, config: AppConfig): void {
  // Built once: @fastify/helmet rebuilt this middleware (and re-parsed the policy) for every request, a visible
  // share of the CPU profile under load; the headers never vary per request here.
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
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => setHeaders(request.raw, reply.raw, (err) => done(err as Error)));
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
