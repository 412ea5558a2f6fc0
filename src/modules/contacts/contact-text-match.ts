/**
 * How typed text is matched against contacts, shared by the list `search` filter and `GET /contacts/search`.
 * Both compare `lower(title)` and the phone's digits — the exact expressions the pg_trgm GIN indexes of
 * migration ContactsSearch are built on, so these SQL fragments must stay textually identical to them.
 */
export const NAME_SQL = (alias: string) => `lower(${alias}.title)`;
export const PHONE_DIGITS_SQL = (alias: string) => `regexp_replace(${alias}.phone, '\\D', '', 'g')`;

/** Only characters people type in phone numbers: digits, spaces, `+`, `-`, `.`, brackets. */
const PHONE_LIKE = /^[\d\s+\-().]+$/;

/** The digits of `text` when it reads as (part of) a phone number with at least two digits, else null. */
export function phoneDigitsOf(text: string): string | null {
  if (!PHONE_LIKE.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  return digits.length >= 2 ? digits : null;
}

/** Escapes LIKE's wildcards so typed `%` and `_` match themselves (the default escape character is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
