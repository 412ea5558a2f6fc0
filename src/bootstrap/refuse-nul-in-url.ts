import type { FastifyInstance } from 'fastify';
import { envelope } from '../common/errors/error-envelope';
import { urlHasNul } from '../common/validation/nul-characters';
import { NUL_MESSAGE, PROVIDER_CALLBACKS } from './json-body-parser';

/**
 * A path or query holding NUL (`%00`) is a 400 VALIDATION_ERROR before routing goes further: PostgreSQL cannot
 * compare or store such text, so it would reach a query only to fail there as a 500. Provider callbacks keep
 * their own rules (their bodies' NUL is replaced by the body parser instead).
 */
export function refuseNulInUrl(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!urlHasNul(request.url) || PROVIDER_CALLBACKS.test(request.url)) return;
    return reply
      .code(400)
      .header('x-request-id', request.id)
      .send(envelope('VALIDATION_ERROR', `request: the path or query ${NUL_MESSAGE}`));
  });
}
