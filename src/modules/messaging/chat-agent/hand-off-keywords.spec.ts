import { mentionsHandOffKeyword } from './hand-off-keywords';

describe('mentionsHandOffKeyword', () => {
  const keywords = ['agent', 'human', 'real person'];

  it('matches a keyword as a whole word in any case', () => {
    expect(mentionsHandOffKeyword('Get me a HUMAN!', keywords)).toBe(true);
    expect(mentionsHandOffKeyword('agent', keywords)).toBe(true);
    expect(mentionsHandOffKeyword('I want a real   Person, please', keywords)).toBe(true);
  });

  it('does not match a keyword inside another word', () => {
    expect(mentionsHandOffKeyword('That was humane of you', keywords)).toBe(false);
    expect(mentionsHandOffKeyword('The agents are busy', keywords)).toBe(false);
    expect(mentionsHandOffKeyword('reagent', keywords)).toBe(false);
  });

  it('treats keywords literally, never as patterns', () => {
    expect(mentionsHandOffKeyword('a.b', ['a.b'])).toBe(true);
    expect(mentionsHandOffKeyword('axb', ['a.b'])).toBe(false);
  });
});
