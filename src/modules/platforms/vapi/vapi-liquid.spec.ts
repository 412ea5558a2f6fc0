import fc from 'fast-check';
import { Liquid } from 'liquidjs';
import { escapeLiquid } from './vapi-liquid';

/** The voice platform's template engine, with variables a hostile value could try to reach. */
const engine = new Liquid();
const variables = { name: 'Ada', customer: { number: '+14155550123' }, secret: 'do-not-print' };
const render = (text: string) => engine.parseAndRenderSync(text, variables) as string;

describe('escapeLiquid: what Vapi renders is exactly our text', () => {
  it.each([
    'Hello {{name}}',
    '{{ secret }}',
    '{% for i in (1..100000) %}spam{% endfor %}',
    '{%- raw -%}{{name}}{% endraw %}',
    '{{{{ "{{" }}}}',
    '{ {name} } %} }} {',
    '{{- name -}} and {%- if true -%}x{%- endif -%}',
    '{% endraw %}{{ secret }}',
  ])('prints %j unchanged, expanding nothing', (text) => {
    expect(render(escapeLiquid(text))).toBe(text);
  });

  it('leaves text without Liquid openings as it is', () => {
    expect(escapeLiquid('Hi Ada, about your order {x} 100%')).toBe('Hi Ada, about your order {x} 100%');
  });

  it('round-trips any text made of Liquid-ish characters', () => {
    const alphabet = fc.constantFrom('{', '}', '%', '-', ' ', '"', "'", 'x', 'name', 'for', 'raw', 'endraw', '|');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(render(escapeLiquid(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
