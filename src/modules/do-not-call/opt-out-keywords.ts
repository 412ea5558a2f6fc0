/** The usual opt-out keywords of messaging carriers (CTIA), matched as the whole message. */
const OPT_OUT_KEYWORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);

/** True when a chat message, trimmed and in any case, is exactly an opt-out keyword. */
export function isOptOut(text: string | null | undefined): boolean {
  return typeof text === 'string' && OPT_OUT_KEYWORDS.has(text.trim().toUpperCase());
}
