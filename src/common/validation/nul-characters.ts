/**
 * The NUL character (U+0000) in request text. PostgreSQL's `text` and `jsonb` cannot hold it, so a string with one
 * would fail at the first write; it is found once, on the parsed body and the URL, before any handler runs.
 */
const NUL = '\u0000';
/** What a provider's NUL becomes: the replacement character, so the message is kept with a visible mark. */
const REPLACEMENT = '\uFFFD';

/** The path (`name`, `items[2].text`) of the first string, key or value, holding NUL in a parsed JSON body. */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = nulPath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, member] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return at.replaceAll(NUL, '\\u0000');
    const found = nulPath(member, at);
    if (found) return found;
  }
  return null;
}

/** The parsed JSON body with every NUL, in keys and values, replaced by U+FFFD (nothing else changed). */
export function replaceNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll(NUL, REPLACEMENT);
  if (Array.isArray(value)) return value.map(replaceNul);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key.replaceAll(NUL, REPLACEMENT), replaceNul(member)]),
  );
}

/** Whether a raw request URL (path and query, still percent-encoded) names a NUL. */
export const urlHasNul = (url: string): boolean => /%00/i.test(url) || url.includes(NUL);
