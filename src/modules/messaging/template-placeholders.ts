import { renderWithin } from '../../common/text/render-within';

/** `{{1}}`, `{{ 2 }}`, `{{first_name}}`: what a template body may contain. */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct placeholder names of a template body, in order of first appearance (`'1'`, `'2'` or names). */
export function templatePlaceholders(body: string): string[] {
  const names: string[] = [];
  for (const match of body.matchAll(PLACEHOLDER)) if (!names.includes(match[1])) names.push(match[1]);
  return names;
}

/** Whether the variables supply exactly the template's placeholders, no more and no fewer. */
export function variablesMatch(body: string, variables: Record<string, string>): boolean {
  const wanted = templatePlaceholders(body);
  const given = Object.keys(variables);
  return wanted.length === given.length && wanted.every((name) => name in variables);
}

/** README "Limits": a rendered template is no longer than a free-form text message may be. */
export const RENDERED_TEMPLATE_MAX_LENGTH = 4096;

/**
 * The body with each placeholder replaced by its variable; an unresolved placeholder becomes empty text. Null
 * when the result would pass RENDERED_TEMPLATE_MAX_LENGTH (rendering stops there).
 */
export function renderTemplate(body: string, variables: Record<string, string>): string | null {
  return renderWithin(
    body,
    PLACEHOLDER,
    (name) => (Object.hasOwn(variables, name) ? variables[name] : ''),
    RENDERED_TEMPLATE_MAX_LENGTH,
  );
}

/** Whether the placeholders are positional (`{{1}}`, `{{2}}`); the provider expects such parameters unnamed. */
export function isPositional(name: string): boolean {
  return /^\d+$/.test(name);
}
