import { argumentsMatch, evaluateExpectations, RunTranscriptLine } from './scenario-expectations';

const transcript: RunTranscriptLine[] = [
  { role: 'assistant', text: 'Hi Ada, this is Acme Dental.' },
  { role: 'user', text: 'Can I book for Tuesday?' },
  {
    role: 'assistant',
    text: 'Booking Tuesday now.',
    toolCalls: [{ name: 'book', arguments: { day: 'Tuesday morning', slots: 2 } }],
  },
];

describe('scenario expectations', () => {
  it('replyIncludes passes on any reply, the opening line included, any case, and shows the reply', () => {
    const [opening, later] = evaluateExpectations({ replyIncludes: ['acme', 'TUESDAY'] }, transcript, false);
    expect(opening).toEqual({
      type: 'replyIncludes',
      expected: 'acme',
      passed: true,
      seen: 'Hi Ada, this is Acme Dental.',
    });
    expect(later).toMatchObject({ passed: true, seen: 'Booking Tuesday now.' });
  });

  it('replyIncludes fails when no reply says it, and shows every reply', () => {
    expect(evaluateExpectations({ replyIncludes: ['refund'] }, transcript, false)).toEqual([
      {
        type: 'replyIncludes',
        expected: 'refund',
        passed: false,
        seen: 'Hi Ada, this is Acme Dental.\nBooking Tuesday now.',
      },
    ]);
    expect(evaluateExpectations({ replyIncludes: ['x'] }, [], false)[0]).toMatchObject({ passed: false, seen: null });
  });

  it("replyExcludes passes when no reply says it; fails on the first that does; the user's words do not count", () => {
    const [absent, said, userOnly] = evaluateExpectations(
      { replyExcludes: ['refund', 'dental', 'can i book'] },
      transcript,
      false,
    );
    expect(absent).toEqual({ type: 'replyExcludes', expected: 'refund', passed: true, seen: null });
    expect(said).toMatchObject({ passed: false, seen: 'Hi Ada, this is Acme Dental.' });
    expect(userOnly).toMatchObject({ passed: true });
  });

  it('a tool call passes by name and included arguments, and shows the call', () => {
    const [byName, byArgs] = evaluateExpectations(
      { toolCalls: [{ name: 'book' }, { name: 'book', argumentsInclude: { day: 'tuesday', slots: 2 } }] },
      transcript,
      false,
    );
    const call = { name: 'book', arguments: { day: 'Tuesday morning', slots: 2 } };
    expect(byName).toEqual({ type: 'toolCall', expected: { name: 'book' }, passed: true, seen: call });
    expect(byArgs).toMatchObject({ passed: true, seen: call });
  });

  it('a tool call fails on other arguments (showing the calls of that name) or when never made (an empty list)', () => {
    const [wrongArgs, never] = evaluateExpectations(
      { toolCalls: [{ name: 'book', argumentsInclude: { slots: 3 } }, { name: 'cancel' }] },
      transcript,
      false,
    );
    expect(wrongArgs).toMatchObject({ passed: false, seen: [{ name: 'book' }] });
    expect(never).toMatchObject({ passed: false, seen: [] });
  });

  it('handOff compares what happened with what was expected, both ways', () => {
    expect(evaluateExpectations({ handOff: true }, transcript, true)).toEqual([
      { type: 'handOff', expected: true, passed: true, seen: true },
    ]);
    expect(evaluateExpectations({ handOff: true }, transcript, false)[0]).toMatchObject({ passed: false });
    expect(evaluateExpectations({ handOff: false }, transcript, true)[0]).toMatchObject({ passed: false, seen: true });
  });

  it('one result per string and per tool call, in the order replyIncludes, replyExcludes, toolCalls, handOff', () => {
    const results = evaluateExpectations(
      { handOff: false, toolCalls: [{ name: 'book' }], replyExcludes: ['a', 'b'], replyIncludes: ['c'] },
      transcript,
      false,
    );
    expect(results.map((r) => r.type)).toEqual([
      'replyIncludes',
      'replyExcludes',
      'replyExcludes',
      'toolCall',
      'handOff',
    ]);
    expect(evaluateExpectations({}, transcript, false)).toEqual([]);
  });

  it('argumentsMatch: a missing key fails; non-strings compare by value', () => {
    expect(argumentsMatch({ a: { b: 1 } }, { a: { b: 1 } })).toBe(true);
    expect(argumentsMatch({ a: '1' }, { a: 1 })).toBe(false);
    expect(argumentsMatch({}, { a: 'x' })).toBe(false);
    expect(argumentsMatch({ a: 1 })).toBe(true);
  });
});
