/** Where a Liquid tag or output starts: `{{` or `{%` (also `{{-` and `{%-`, which begin the same way). */
const LIQUID_OPENING = /\{[{%]/g;

/**
 * Our rendered first message and system prompt as Liquid that prints exactly them: Vapi runs the text it gets
 * through its own template engine (LiquidJS: `{{ }}` outputs and `{% %}` tags, e.g. a `{% for %}` loop), so text
 * that came out of our rendering with such syntax in it (a contact's name, a variable value) would otherwise be
 * expanded there, past the bounds our rendering enforced (README "Limits"). Each opening becomes an output of
 * that opening as a quoted string (`{{ "{{" }}`), in one pass, so no opening of the result is one we did not make
 * and the engine prints the text unchanged.
 */
export function escapeLiquid(text: string): string {
  return text.replace(LIQUID_OPENING, (opening) => `{{ "${opening}" }}`);
}
