/** docs/contracts/bounds.md: what a JSON request body may hold, decided before it is parsed into objects. */
export const JSON_BODY_LIMITS = { members: 2000, depth: 32 } as const;
/**
 * Bulk creates whose contract allows more (docs/contracts/dialer.md: a campaign's audience holds up to 10,000 rows, each an
 * object of a few members; POST /contacts/batch up to 1,000 contacts, each with up to 100 custom fields). Still decided on the raw bytes, and the 1 MiB body limit still holds.
 */
export const BULK_JSON_BODY_LIMITS = { members: 100_000, depth: 32 } as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Why a JSON text is over the bounds (members in total: object members plus array elements, at every level;
 * nesting depth), or null when it is within them. One pass over the bytes with no recursion and no allocation,
 * so a 1 MiB body costs about a millisecond and cannot hold the event loop; malformed text is left to the parser
 * (the scan only counts what it sees outside strings).
 */
export function jsonShapeViolation(
  text: Buffer,
  limits: { members: number; depth: number } = JSON_BODY_LIMITS,
): string | null {
  let depth = 0;
  let members = 0;
  // After `{` or `[`: the next significant byte decides whether that container holds a first member.
  let justOpened = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === SPACE || byte === TAB || byte === LF || byte === CR) continue;
    if (justOpened) {
      justOpened = false;
      if (byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY) members++;
    }
    if (byte === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return null;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limits.depth) return `body: nested deeper than ${limits.depth} levels`;
      justOpened = true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
    else if (byte === COMMA) members++;
    if (members > limits.members) return `body: more than ${limits.members} members in total`;
  }
  return null;
}

/** The index of the quote closing the string opened at `start` (-1 when unterminated); native search, O(length). */
function closingQuote(text: Buffer, start: number): number {
  let quote = text.indexOf(QUOTE, start + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf(QUOTE, quote + 1);
  }
  return -1;
}
