import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { Scope } from './scopes';

export const ACCESS_KEY = 'vc:access';

export type Access =
  | { kind: 'scope'; scope: Scope }
  | { kind: 'public' }
  | { kind: 'admin' }
  /** A provider callback that authenticates itself (a shared secret or a signature), never with an API key. */
  | { kind: 'provider' };

export const API_KEY_SECURITY = 'ApiKey';

/**
 * The one decorator that both enforces and documents access to a route: the guard denies keys without the
 * scope (403 INSUFFICIENT_SCOPE naming it) and the OpenAPI document shows the scope and the auth errors.
 */
export function RequireScope(scope: Scope): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'scope', scope } satisfies Access),
    ApiSecurity(API_KEY_SECURITY),
    ApiExtension('x-required-scope', scope),
    ApiErrors(
      'UNAUTHORIZED',
      'KEY_REVOKED',
      'KEY_EXPIRED',
      'INSUFFICIENT_SCOPE',
      'RATE_LIMITED',
      'INTERNAL_ERROR',
      // Any route answers 503 while the database is unreachable (to-error-response.ts).
      'SERVICE_UNAVAILABLE',
    ),
  );
}

/** No credentials at all (health, docs). */
export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies Access);

/**
 * The dashboard's admin API (docs/contracts/admin-api.md): `Authorization: Bearer <ADMIN_TOKEN>`, or a console session cookie
 * (src/modules/console); off when no token is set. openapi/admin.yaml documents both as security schemes.
 */
export const AdminOnly = () => SetMetadata(ACCESS_KEY, { kind: 'admin' } satisfies Access);

/** A provider callback; the handler verifies the provider's own signature or secret. */
export const ProviderCallback = () => SetMetadata(ACCESS_KEY, { kind: 'provider' } satisfies Access);
