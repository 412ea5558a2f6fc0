const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * True when the text holds one of the keywords as a whole word (or words), in any case: "Get me a HUMAN!" matches
 * `human`, "humane" does not. Word edges are Unicode letters and digits, so "personne" never matches `person`.
 */
export function mentionsHandOffKeyword(text: string, keywords: readonly string[]): boolean {
  return mentionsWholeWord(text, keywords);
}

/** True when the text holds one of `words` as a whole word (or words), in any case (the rule above). */
export function mentionsWholeWord(text: string, words: readonly string[]): boolean {
  return words.some((k) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escape(k.trim()).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'iu').test(text),
  );
}
