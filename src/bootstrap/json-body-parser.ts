import type { FastifyInstance, RawServerDefault } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiError } from '../common/errors/api-error';
import { BULK_JSON_BODY_LIMITS, JSON_BODY_LIMITS, jsonShapeViolation } from '../common/validation/json-shape';
import { nulPath, replaceNul } from '../common/validation/nul-characters';

/** Signed provider callbacks: never refused for their content, which the provider would only send again. */
export const PROVIDER_CALLBACKS = /^\/platform\//;

/**
 * Routes whose bodies may hold more members (method and path, no query): the bulk creates and their console
 * twins under an organization.
 */
const BULK_ROUTES = /^POST \/(api\/v1|admin\/v1\/organizations\/[^/]+)\/(campaigns|contacts\/batch)$/;

/**
 * The application/json parser: the body's shape (members, depth; docs/contracts/bounds.md) is checked on its raw bytes
 * first, so a body that would make JSON.parse or class-transformer work hard (80,000 keys, 5,000 levels) is a
 * 400 VALIDATION_ERROR before any object is built. Within the bounds, Fastify's own parser (prototype-poisoning
 * checks included) does the rest; the raw bytes stay on `request.rawBody` for signature checks. A string holding
 * NUL (U+0000, which PostgreSQL cannot store) is a 400 VALIDATION_ERROR naming it, except in a provider's
 * callback, where NUL becomes U+FFFD and the message is kept (the signature was over the raw bytes).
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

export function useBoundedJsonParser(app: NestFastifyApplication, fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit }, (request, body, done) => {
    const route = `${request.method} ${(request.url ?? '').split('?', 1)[0]}`;
    const violation = jsonShapeViolation(body, BULK_ROUTES.test(route) ? BULK_JSON_BODY_LIMITS : JSON_BODY_LIMITS);
    if (violation) {
      done(new ApiError('VALIDATION_ERROR', violation, [{ field: 'body', message: violation }]), undefined);
      return;
    }
    // Typed for a string body; Fastify's parser reads a Buffer the same way (secure-json-parse takes both).
    void parseJson(request, body as unknown as string, (error, parsed) => {
      if (error) return done(error, undefined);
      const nul = nulPath(parsed);
      if (!nul) return done(null, parsed);
      if (PROVIDER_CALLBACKS.test(request.url ?? '')) return done(null, replaceNul(parsed));
      done(ApiError.validation(nul, NUL_MESSAGE), undefined);
    });
  });
}
