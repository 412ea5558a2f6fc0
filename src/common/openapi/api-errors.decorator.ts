import { getSchemaPath } from '@nestjs/swagger';
import { ERROR_STATUS, ErrorCode } from '../errors/error-codes';
import { ErrorEnvelopeDto } from './error-envelope.dto';

const ERROR_CODES_KEY = 'vc:error-codes';
/** @nestjs/swagger's metadata key for responses (its constants are not exported from the package root). */
const API_RESPONSE_KEY = 'swagger/apiResponse';

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'title: title must be shorter than or equal to 200 characters',
  INVALID_CURSOR: 'cursor: the cursor was made for another filter set; restart without a cursor',
  UNAUTHORIZED: 'Missing or invalid X-API-Key',
  KEY_REVOKED: 'The API key was revoked',
  KEY_EXPIRED: 'The API key expired',
  INSUFFICIENT_SCOPE: 'This key lacks the scope calls:write',
  NOT_FOUND: 'Resource not found',
  PAYLOAD_TOO_LARGE: 'Request body exceeds 1 MiB',
  DO_NOT_CALL: '+14155550187 is on the do-not-call list',
  DESTINATION_NOT_ALLOWED:
    'to: +19005550123 is a premium-rate number (+1900, NANP 900: premium-rate services (NANPA)); this organization has not opted in to calling premium-rate numbers',
  RATE_LIMITED: 'Rate limit exceeded; retry after the Retry-After header',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'A backing service is temporarily unavailable; retry shortly',
};

/** One status's response: the codes it carries, in the shared error envelope, with an example per code. */
export function errorResponse(codes: readonly ErrorCode[]) {
  return {
    description: codes.join(', '),
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
        examples: Object.fromEntries(
          codes.map((code) => [
            code,
            { value: { error: { code, message: DEFAULT_MESSAGES[code] ?? code.toLowerCase().replace(/_/g, ' ') } } },
          ]),
        ),
      },
    },
  };
}

/** A code at its usual status, or `CODE@status` for a code a route also answers at another (`VALIDATION_ERROR@422`). */
export type DocumentedError = ErrorCode | `${ErrorCode}@${number}`;

function statusAndCode(documented: DocumentedError): [number, ErrorCode] {
  const [code, status] = documented.split('@') as [ErrorCode, string | undefined];
  return [status ? Number(status) : ERROR_STATUS[code], code];
}

/**
 * Documents the error codes a route can return. Codes accumulate across decorators (the scope decorator adds
 * the auth errors, the route its own), and each status gets one response listing its codes with an example
 * per code, all in the shared error envelope.
 */
export function ApiErrors(...codes: DocumentedError[]): MethodDecorator & ClassDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = descriptor ? descriptor.value : target;
    const all: DocumentedError[] = [...new Set([...(Reflect.getMetadata(ERROR_CODES_KEY, holder) ?? []), ...codes])];
    Reflect.defineMetadata(ERROR_CODES_KEY, all, holder);
    const responses = { ...(Reflect.getMetadata(API_RESPONSE_KEY, holder) ?? {}) };
    const byStatus = new Map<number, ErrorCode[]>();
    for (const [status, code] of all.map(statusAndCode)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    for (const [status, statusCodes] of byStatus) responses[status] = errorResponse(statusCodes);
    Reflect.defineMetadata(API_RESPONSE_KEY, responses, holder);
    return descriptor ?? target;
  }) as MethodDecorator & ClassDecorator;
}

/**
 * The errors of an admin route (openapi/admin.yaml) plus its own: 401 for a missing or wrong token or session,
 * 404 when the admin API is off (no ADMIN_TOKEN) or the organization is unknown, 400 for a malformed id.
 * Per method, because a method's codes for a status replace the class's codes for it.
 */
export const ApiAdminErrors = (...codes: DocumentedError[]) =>
  ApiErrors('UNAUTHORIZED', 'NOT_FOUND', 'VALIDATION_ERROR', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE', ...codes);
