import type { FastifyInstance } from 'fastify';
import { isQuietRequest } from './quiet-requests';

/** The paths whose every request leaves one line (docs/contracts/bounds.md): the public, admin and platform APIs. */
const LOGGED_PREFIXES = ['/api/v1/', '/admin/v1/', '/platform/'];

export interface AccessLogSink {
  log(line: Record<string, unknown>, message: string): void;
  /** The console's static files and successful reads, which pollers repeat (isQuietRequest). */
  debug(line: Record<string, unknown>, message: string): void;
}

/**
 * One line per request on the APIs (info; debug for successful reads, isQuietRequest), written when the response is sent: method, route template (never the
 * concrete URL, which can carry ids and query text), status, duration, request id, and the organization and key
 * the request authenticated as. Never headers, bodies or keys.
 */
export function installAccessLog(fastify: FastifyInstance, sink: AccessLogSink): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const path = request.url;
    if (!LOGGED_PREFIXES.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix)) return;
    const write = isQuietRequest(request.method, path, reply.statusCode) ? 'debug' : 'log';
    sink[write](
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        requestId: request.id,
        organizationId: request.auth?.organizationId ?? null,
        apiKeyId: request.auth?.apiKeyId ?? null,
      },
      'request',
    );
  });
}
