import type { ApiPropertyOptions } from '@nestjs/swagger';

/**
 * The OpenAPI schema of a property holding any JSON value. OpenAPI 3.0 has no `null` type and forbids `nullable`
 * without one, so null rides on a member.
 */
export const anyJsonProperty = (options: { description: string; example?: unknown }): ApiPropertyOptions => ({
  anyOf: [
    { type: 'string', nullable: true },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
  ...options,
});
