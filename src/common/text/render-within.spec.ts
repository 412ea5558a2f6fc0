import { renderWithin } from './render-within';

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

describe('renderWithin', () => {
  it('fills placeholders and keeps the text around them', () => {
    expect(renderWithin('Hi {{ name }}, {{x}}!', PLACEHOLDER, (n) => (n === 'name' ? 'Ada' : ''), 100)).toBe(
      'Hi Ada, !',
    );
  });

  it('accepts a result of exactly the bound and refuses one character more', () => {
    expect(renderWithin('ab{{v}}', PLACEHOLDER, () => 'c', 3)).toBe('abc');
    expect(renderWithin('ab{{v}}d', PLACEHOLDER, () => 'c', 3)).toBeNull();
  });

  it('stops reading values as soon as the bound is crossed (2,000 x 1,000 characters is never built)', () => {
    const valueOf = jest.fn(() => 'x'.repeat(1000));
    expect(renderWithin('{{a}}'.repeat(2000), PLACEHOLDER, valueOf, 50_000)).toBeNull();
    expect(valueOf).toHaveBeenCalledTimes(51);
  });
});
