import type { FastifyInstance, FastifyRequest } from 'fastify';
import { envelope } from '../common/errors/error-envelope';

/** Every body our API and admin API accept is JSON; provider callbacks keep their own rules. */
const JSON_ONLY = /^\/(api|admin)\/v1\//;
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * A body sent without `Content-Type: application/json` (curl's `-d` says form-urlencoded, which the framework
 * would otherwise parse into nonsense and answer with a field-by-field validation error) is refused before
 * parsing with one message that names the type expected and the type received. 400 VALIDATION_ERROR, the code
 * docs/contracts/errors.md gives every body that fails validation (a 415 would be a status no operation documents).
 */
export function requireJsonContentType(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!hasBody(request) || !JSON_ONLY.test(request.url)) return;
    const type = request.headers['content-type'];
    if (type && JSON_TYPE.test(type)) return;
    const got = type ? `got ${type.split(';')[0]}` : 'no Content-Type was sent';
    return reply
      .code(400)
      .header('x-request-id', request.id)
      .send(envelope('VALIDATION_ERROR', `body: Content-Type must be application/json (${got})`));
  });
}
