/** Bounds of an organization's destination rules (docs/contracts/bounds.md). */
export const DESTINATION_RULE_BOUNDS = {
  /** Allowed countries at most (there are fewer than 250 ISO 3166-1 codes). */
  countries: 250,
  /** Blocked prefixes at most. */
  prefixes: 100,
  /** Digits of a blocked prefix at most (a whole E.164 number has 15). */
  prefixDigits: 15,
  prefix: /^\+[1-9]\d{0,14}$/,
} as const;
