import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { envelope } from '../common/errors/error-envelope';
import { AppConfig } from '../infra/config/app-config';
import { requestIdFor } from '../infra/logging/request-id';
import { installAccessLog } from '../infra/logging/access-log';
import { DatabaseUrls } from '../infra/database/database-urls';
import { QueueConnection } from '../infra/queue/queue-connection';
import { JobQueue } from '../infra/queue/job-queue';
import { mountQueueDashboard } from '../infra/queue/queue-dashboard';
import { mountConsole } from '../modules/console/console-static';
import { installHttpMetrics } from '../infra/metrics/http-metrics';
import { Metrics } from '../infra/metrics/metrics';
import { applySecurityHeaders } from './security-headers';
import { requireJsonContentType } from './require-json-content-type';
import { refuseNulInUrl } from './refuse-nul-in-url';
import { AdminTokenCheck } from '../common/auth/admin-token';
import { AuthFailureBudget } from '../common/rate-limit/auth-failure-budget';
import { assertEveryRouteDeclaresAccess } from '../common/auth/assert-route-access';
import { setupOpenApi } from './openapi-document';
import { useBoundedJsonParser } from './json-body-parser';

/** docs/contracts/errors.md: bodies over 1 MiB are 413 PAYLOAD_TOO_LARGE. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * A client gets REQUEST_TIMEOUT_MS (30 s by default) to send a whole request, body included: Node checks every
 * CONNECTIONS_CHECK_MS whether a request has outlived it and answers 408 (so a body delivered slowly is cut at
 * most a second past the bound, not up to Node's default 30 s later); an idle socket is closed after 60 s, and a
 * kept-alive one waits 65 s for the next request: longer than the 60 s idle timeout of common load balancers, so
 * they close first and never reuse a socket we just closed.
 */
export const CONNECTIONS_CHECK_MS = 1000;
export const HTTP_TIMEOUTS = { connectionTimeout: 60_000, keepAliveTimeout: 65_000 } as const;
/** docs/contracts/bounds.md: a longer path parameter is answered 404 NOT_FOUND by the router, before any handler. */
export const MAX_PARAM_LENGTH = 100;

/** How a request Node's HTTP parser refused (or timed out) is answered, before any routing. */
function clientErrorAnswer(code: string | undefined, requestTimeoutMs: number) {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, reason: 'Request Header Fields Too Large', message: 'request: URL or headers exceed 16 KB' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const seconds = requestTimeoutMs / 1000;
    return { status: 408, reason: 'Request Timeout', message: `request: not received in full within ${seconds} s` };
  }
  return { status: 400, reason: 'Bad Request', message: 'request: malformed HTTP request' };
}

/** Builds the Nest application on Fastify with every cross-cutting piece wired; the caller decides whether to listen. */
export async function createApp(options: {
  config: AppConfig;
  database: DatabaseUrls;
  queue: QueueConnection;
}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (req: IncomingMessage) => requestIdFor(req),
    requestIdHeader: false,
    trustProxy: options.config.trustProxy,
    logger: false,
    ...HTTP_TIMEOUTS,
    requestTimeout: options.config.requestTimeoutMs,
    // Given to Node's server constructor too: set only afterwards (as Fastify does), Node never enforced it and a
    // slow body held its socket until the 60 s headers timeout (measured). Headers get the same bound.
    http: { connectionsCheckingInterval: CONNECTIONS_CHECK_MS, requestTimeout: options.config.requestTimeoutMs },
    // Errors Fastify's router raises before any route or hook runs, answered in the envelope (docs/contracts/bounds.md): a path
    // parameter over 100 characters can never be a known id, so it is an unknown one.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply
        .code(tooLong ? 404 : 400)
        .header('x-request-id', request.id)
        .send(
          tooLong
            ? envelope('NOT_FOUND', `Not found: a path parameter exceeds ${MAX_PARAM_LENGTH} characters`)
            : envelope('VALIDATION_ERROR', 'request: malformed URL'),
        );
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Requests Node's HTTP parser rejects (headers or URL over 16 KB, malformed request line) never reach Fastify's
    // routing; answer them in the same envelope instead of Fastify's default body.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      const { status, reason, message } = clientErrorAnswer(error.code, options.config.requestTimeoutMs);
      const body = JSON.stringify(envelope('VALIDATION_ERROR', message));
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${status} ${reason}\r\n` +
            `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Connection: close\r\n\r\n${body}`,
        );
      } else {
        socket.destroy(error);
      }
    },
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  requireJsonContentType(fastify);
  refuseNulInUrl(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bufferLogs: true,
    abortOnError: false,
    // Keep each JSON body's raw bytes on `request.rawBody` (the same buffer the parser reads, no copy): provider
    // callbacks verify signatures over the exact bytes sent (X-Hub-Signature-256), which re-serialising cannot give.
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  useBoundedJsonParser(app, fastify, BODY_LIMIT_BYTES);
  app.useGlobalPipes(createValidationPipe());
  // No enableShutdownHooks(): the entry points own the signals (see shutdown.ts) so the process exits 0 after close.
  applySecurityHeaders(app, options.config);
  installHttpMetrics(fastify, app.get(Metrics));
  const accessLog = new NestLogger('access');
  installAccessLog(fastify, {
    log: (line, message) => accessLog.log({ ...line, msg: message }),
    debug: (line, message) => accessLog.debug({ ...line, msg: message }),
  });
  const adminToken = new AdminTokenCheck(options.config.adminToken);
  const failures = app.get(AuthFailureBudget);
  await mountQueueDashboard(fastify, app.get(JobQueue), {
    enabled: adminToken.enabled,
    refusal: (authorization, address) => adminToken.refusal(authorization, address, failures),
  });
  await mountConsole(fastify);
  setupOpenApi(app);
  try {
    await app.init();
  } catch (error) {
    // A start-up check refused (an OnApplicationBootstrap hook threw): what the modules opened before it (pools,
    // queue connections, timers) is closed, so the refusal alone is what the caller sees.
    await app.close().catch(() => undefined);
    throw error;
  }
  assertEveryRouteDeclaresAccess(app);
  return app;
}
