import { ApiError } from '../../common/errors/api-error';
import { toE164 } from '../../common/validation/e164';

/** The `:number` path parameter of the ledger's routes (public and console), as OpenAPI shows it. */
export const NUMBER_PARAM = {
  name: 'number',
  description: 'E.164, URL-encoded (`%2B14155550199`)',
  example: '+14155550199',
};

/** The `:number` path parameter in E.164, or a 400 naming it. */
export function numberParam(raw: string): string {
  const number = toE164(raw);
  if (!number) throw ApiError.validation('number', 'must be a phone number in E.164 format, e.g. +14155550187');
  return number;
}
