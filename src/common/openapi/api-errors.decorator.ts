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
  RATE_LIMITED: 'Rate limit exceeded; retry after the Retry-After header',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'A backing service is temporarily unavailable; retry shortly',
};

/**
 * Documents the error codes a route can return. Codes accumulate across decorators (the scope decorator adds
 * the auth errors, the route its own), and each status gets one response listing its codes with an example
 * per code, all in the shared error envelope.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = descriptor ? descriptor.value : target;
    const all: ErrorCode[] = [...new Set([...(Reflect.getMetadata(ERROR_CODES_KEY, holder) ?? []), ...codes])];
    Reflect.defineMetadata(ERROR_CODES_KEY, all, holder);
    const responses = { ...(Reflect.getMetadata(API_RESPONSE_KEY, holder) ?? {}) };
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of all) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [status, statusCodes] of byStatus) {
      responses[status] = {
        description: statusCodes.join(', '),
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
            examples: Object.fromEntries(
              statusCodes.map((code) => [
                code,
                {
                  value: { error: { code, message: DEFAULT_MESSAGES[code] ?? code.toLowerCase().replace(/_/g, ' ') } },
                },
              ]),
            ),
          },
        },
      };
    }
    Reflect.defineMetadata(API_RESPONSE_KEY, responses, holder);
    return descriptor ?? target;
  }) as MethodDecorator & ClassDecorator;
}
