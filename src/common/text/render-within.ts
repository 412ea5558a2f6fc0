/**
 * Fills in a template's placeholders, stopping as soon as the result would pass `maxLength`: a short template
 * repeating one long value (`{{a}}` x 2,000) can never build the large string (docs/contracts/bounds.md). Returns null when
 * the bound is crossed. `pattern` must be global; its first group is the placeholder name.
 */
export function renderWithin(
  template: string,
  pattern: RegExp,
  valueOf: (name: string) => string,
  maxLength: number,
): string | null {
  const parts: string[] = [];
  let length = 0;
  let last = 0;
  const add = (text: string) => {
    length += text.length;
    parts.push(text);
    return length <= maxLength;
  };
  for (const match of template.matchAll(pattern)) {
    if (!add(template.slice(last, match.index)) || !add(valueOf(match[1]))) return null;
    last = match.index + match[0].length;
  }
  return add(template.slice(last)) ? parts.join('') : null;
}
