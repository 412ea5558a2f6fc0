import type { FastifyInstance } from 'fastify';
import { Metrics } from './metrics';

/**
 * Times every HTTP response, whatever produced it (a handler, a guard's 401/429, Fastify's own 404 or 413).
 * Unmatched URLs share one label value so scanners cannot grow the label set.
 */
export function installHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
