import type { FastifyInstance, RawServerDefault } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiError } from '../common/errors/api-error';
import { BULK_JSON_BODY_LIMITS, JSON_BODY_LIMITS, jsonShapeViolation } from '../common/validation/json-shape';

/** Routes whose bodies may hold more members (method and path, no query). */
const BULK_ROUTES = new Set(['POST /api/v1/campaigns', 'POST /api/v1/contacts/batch']);

/**
 * The application/json parser: the body's shape (members, depth; docs/contracts/bounds.md) is checked on its raw bytes
 * first, so a body that would make JSON.parse or class-transformer work hard (80,000 keys, 5,000 levels) is a
 * 400 VALIDATION_ERROR before any object is built. Within the bounds, Fastify's own parser (prototype-poisoning
 * checks included) does the rest; the raw bytes stay on `request.rawBody` for signature checks.
 */
export function useBoundedJsonParser(app: NestFastifyApplication, fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit }, (request, body, done) => {
    const route = `${request.method} ${(request.url ?? '').split('?', 1)[0]}`;
    const violation = jsonShapeViolation(body, BULK_ROUTES.has(route) ? BULK_JSON_BODY_LIMITS : JSON_BODY_LIMITS);
    if (violation) {
      done(new ApiError('VALIDATION_ERROR', violation, [{ field: 'body', message: violation }]), undefined);
      return;
    }
    // Typed for a string body; Fastify's parser reads a Buffer the same way (secure-json-parse takes both).
    void parseJson(request, body as unknown as string, done);
  });
}
