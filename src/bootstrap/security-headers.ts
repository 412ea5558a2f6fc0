import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '../infra/config/app-config';

/**
 * Security headers on every response (@fastify/helmet). The API itself serves JSON, so the Content-Security-Policy
 * matters only for the two HTML pages we serve: Swagger UI at /docs and the queue dashboard at /admin/queues.
 * Both need inline styles and bootstrap scripts, and Swagger UI shows data: images, so those are allowed while
 * everything still loads from our own origin only.
 */
export async function applySecurityHeaders(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  await app.register(helmet, {
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
