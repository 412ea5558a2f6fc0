import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { BLOCKED_RANGES, BlockedRange, DestinationClass } from './destination-ranges';

/** ITU-T E.164's global service codes that libphonenumber knows: numbers of no country. */
const NON_GEOGRAPHIC_CODES = new Set(['800', '808', '870', '878', '881', '882', '883', '888', '979']);

/** An organization's destination rules (docs/contracts/destinations.md). */
export interface DestinationRules {
  /** ISO 3166-1 alpha-2 codes of the countries calls may go to; null: every country. */
  allowedCountries: string[] | null;
  /** E.164 prefixes never called, on top of the ranges blocked by default. */
  blockedPrefixes: string[];
  /** Classes of BLOCKED_RANGES this organization opted in to. */
  allowedClasses: DestinationClass[];
}

/** An organization that never set its rules: every country, no prefix of its own, every class blocked. */
export const DEFAULT_DESTINATION_RULES: DestinationRules = Object.freeze({
  allowedCountries: null,
  blockedPrefixes: [],
  allowedClasses: [],
});

export type DestinationVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'blocked-prefix'; prefix: string }
  | { allowed: false; reason: 'blocked-class'; prefix: string; class: DestinationClass; description: string }
  | { allowed: false; reason: 'country-not-allowed'; country: string | null };

/**
 * Whether `number` (E.164) may be called under `rules`, and if not the first rule that refuses it, in this
 * order: the organization's own blocked prefixes, then the ranges blocked by default whose class it did not
 * opt in to (the longest matching range decides), then the allowed countries. Pure: the same number and rules
 * always give the same verdict, whatever the world (test or live) or the path (call, transfer, campaign).
 */
export function evaluateDestination(number: string, rules: DestinationRules): DestinationVerdict {
  const ownPrefix = rules.blockedPrefixes.find((p) => number.startsWith(p));
  if (ownPrefix) return { allowed: false, reason: 'blocked-prefix', prefix: ownPrefix };
  const range = blockedRangeOf(number);
  if (range && !rules.allowedClasses.includes(range.class)) {
    return { allowed: false, reason: 'blocked-class', ...range };
  }
  if (rules.allowedCountries === null) return { allowed: true };
  const countries = countriesOf(number);
  // A non-geographic number (a global code: satellite, international networks, freephone) belongs to no
  // country, so the country list does not speak of it: the ranges above decide.
  if (countries === null) return { allowed: true };
  const allowed = countries.length > 0 && countries.every((c) => rules.allowedCountries!.includes(c));
  return allowed ? { allowed: true } : { allowed: false, reason: 'country-not-allowed', country: countries[0] ?? null };
}

/** The longest range blocked by default that `number` falls in, or null. */
export function blockedRangeOf(number: string): BlockedRange | null {
  let best: BlockedRange | null = null;
  for (const range of BLOCKED_RANGES) {
    if (number.startsWith(range.prefix) && (!best || range.prefix.length > best.prefix.length)) best = range;
  }
  return best;
}

/**
 * The country a number belongs to: the one its digits identify, else every country sharing its calling code
 * that it could belong to (a number of one of them is allowed only when all are); null for a number of a
 * global code that belongs to no country, and [] when nothing matches (refused by a country list).
 */
export function countriesOf(number: string): string[] | null {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed) return [];
  if (parsed.country) return [parsed.country];
  const possible = parsed.getPossibleCountries();
  if (possible.length) return possible;
  return NON_GEOGRAPHIC_CODES.has(parsed.countryCallingCode) ? null : [];
}

/** The refusal's message: which number, and which rule of the organization refused it. */
export function refusalMessage(number: string, verdict: Exclude<DestinationVerdict, { allowed: true }>): string {
  switch (verdict.reason) {
    case 'blocked-prefix':
      return `${number} starts with ${verdict.prefix}, a prefix this organization blocks`;
    case 'blocked-class':
      return `${number} is a ${verdict.class} number (${verdict.prefix}, ${verdict.description}); this organization has not opted in to calling ${verdict.class} numbers`;
    case 'country-not-allowed':
      return `${number} is in ${verdict.country ?? 'no known country'}, not a country this organization calls`;
  }
}
