import { SetMetadata, Type, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT_SECRET_SOURCE, ReplaySecretSource } from './replay-secret';

/** Accept an `Idempotency-Key` header on a create route (docs/contracts/conventions.md), enforced and documented in one place. */
export function Idempotent(options: { secretFrom?: Type<ReplaySecretSource> } = {}) {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    // A response carrying `data.secret` is stored with the secret's SHA-256 only (docs/contracts/bounds.md); a replay shows
    // the secret again only while it is still the resource's live one.
    ...(options.secretFrom ? [SetMetadata(IDEMPOTENT_SECRET_SOURCE, options.secretFrom)] : []),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the create safe to retry: for 24 h a repeat with the same key and body replays the first response ' +
        '(header `Idempotent-Replayed: true`); the same key with another body is 422, and a repeat while the first ' +
        'is still running is 409.',
      schema: { type: 'string', maxLength: 255 },
    }),
    ApiErrors('IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_KEY_REUSED', ...(options.secretFrom ? (['CONFLICT'] as const) : [])),
  );
}
