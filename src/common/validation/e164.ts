import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Recent answers of `toE164`: a phone field is parsed by its transform and again by its validator (with the
 * normalised value), and parsing is the costliest step of a contact write (a profile of POST /contacts, BENCHMARKS.md). Bounded: emptied
 * when full, so the worst input costs a parse, never memory.
 */
const recent = new Map<string, string | null>();
const RECENT_MAX = 1024;

/**
 * The E.164 form of a phone number written in any common international format, or null when it is not one.
 * Free of Node and of the validation framework: the console checks uploaded rows with this same function.
 */
export function toE164(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40 || !value.trim().startsWith('+')) return null;
  const known = recent.get(value);
  if (known !== undefined) return known;
  const parsed = parsePhoneNumberFromString(value.trim());
  const e164 = parsed?.isPossible() ? parsed.number : null;
  if (recent.size >= RECENT_MAX) recent.clear();
  recent.set(value, e164);
  return e164;
}
