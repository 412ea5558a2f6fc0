import {
  RENDERED_TEMPLATE_MAX_LENGTH,
  renderTemplate,
  templatePlaceholders,
  variablesMatch,
} from './template-placeholders';

describe('template placeholders', () => {
  it('lists distinct placeholders in order of first appearance', () => {
    expect(templatePlaceholders('Hi {{1}}, your {{2}} is ready, {{1}}')).toEqual(['1', '2']);
    expect(templatePlaceholders('Hi {{ first_name }}, order {{order}}')).toEqual(['first_name', 'order']);
    expect(templatePlaceholders('No placeholders')).toEqual([]);
  });

  it('matches only when the variables are exactly the placeholders', () => {
    expect(variablesMatch('Hi {{1}} {{2}}', { '1': 'a', '2': 'b' })).toBe(true);
    expect(variablesMatch('Hi {{1}} {{2}}', { '1': 'a' })).toBe(false);
    expect(variablesMatch('Hi {{1}}', { '1': 'a', '2': 'b' })).toBe(false);
    expect(variablesMatch('Hi {{name}}', { '1': 'a' })).toBe(false);
    expect(variablesMatch('Hello', {})).toBe(true);
  });

  it('renders named and positional placeholders', () => {
    expect(renderTemplate('Hi {{1}}, order {{ 2 }}', { '1': 'Ann', '2': '#7' })).toBe('Hi Ann, order #7');
    expect(renderTemplate('Hi {{name}}', { name: 'Bob' })).toBe('Hi Bob');
    expect(renderTemplate('Hi {{name}}!', {})).toBe('Hi !');
  });

  it('renders up to 4,096 characters and refuses one more', () => {
    const body = '{{1}}'.repeat(4);
    expect(renderTemplate(body, { '1': 'x'.repeat(RENDERED_TEMPLATE_MAX_LENGTH / 4) })).toHaveLength(4096);
    expect(renderTemplate(`${body}!`, { '1': 'x'.repeat(RENDERED_TEMPLATE_MAX_LENGTH / 4) })).toBeNull();
  });
});
