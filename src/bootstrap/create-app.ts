import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { toErrorResponse } from '../common/errors/to-error-response';
import { AppConfig } from '../infra/config/app-config';
import { requestIdFor } from '../infra/logging/request-id';
import { QueueConnection } from '../infra/queue/queue-connection';
import { JobQueue } from '../infra/queue/job-queue.service';
import { mountQueueDashboard } from '../infra/queue/queue-dashboard';
import { installHttpMetrics } from '../infra/metrics/http-metrics';
import { Metrics } from '../infra/metrics/metrics.service';
import { applySecurityHeaders } from './security-headers';
import { assertEveryRouteDeclaresAccess } from '../common/auth/assert-route-access';
import { setupOpenApi } from '../common/openapi/openapi-document';

/** CONTRACTS §2: bodies over 1 MiB are 413 PAYLOAD_TOO_LARGE. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the Nest application on Fastify with every cross-cutting piece wired; the caller decides whether to listen. */
export async function createApp(options: {
  config: AppConfig;
  databaseUrl: string;
  queue: QueueConnection;
}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (req: IncomingMessage) => requestIdFor(req),
    requestIdHeader: false,
    trustProxy: true,
    logger: false,
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  // Errors raised by Fastify itself (body parser, size limit) before Nest routing: same envelope as ours.
  fastify.setErrorHandler((error, _request, reply) => {
    const response = toErrorResponse(error);
    if (response.headers) void reply.headers(response.headers);
    void reply.status(response.status).send(response.body);
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bufferLogs: true,
    abortOnError: false,
    // Keep each JSON body's raw bytes on `request.rawBody` (the same buffer the parser reads, no copy): provider
    // callbacks verify signatures over the exact bytes sent (X-Hub-Signature-256), which re-serialising cannot give.
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(createValidationPipe());
  // No enableShutdownHooks(): the entry points own the signals (see shutdown.ts) so the process exits 0 after close.
  await applySecurityHeaders(app, options.config);
  installHttpMetrics(fastify, app.get(Metrics));
  await mountQueueDashboard(fastify, app.get(JobQueue), options.config.adminToken);
  setupOpenApi(app);
  await app.init();
  assertEveryRouteDeclaresAccess(app);
  return app;
}
