/** A tool call an assistant made in a scenario run's turn (recorded, never executed). */
export interface SeenToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One line of a scenario run's transcript. */
export interface RunTranscriptLine {
  role: 'user' | 'assistant';
  text: string;
  toolCalls?: SeenToolCall[];
}

export interface ExpectedToolCall {
  name: string;
  /** Each key must be among the call's arguments: a string contained (any case), anything else equal. */
  argumentsInclude?: Record<string, unknown>;
}

/** What a scenario expects of its conversation. */
export interface ScenarioExpect {
  replyIncludes?: string[];
  replyExcludes?: string[];
  toolCalls?: ExpectedToolCall[];
  handOff?: boolean;
}

export const EXPECTATION_TYPES = ['replyIncludes', 'replyExcludes', 'toolCall', 'handOff'] as const;
export type ExpectationType = (typeof EXPECTATION_TYPES)[number];

/** One expectation, judged: `seen` is what the run showed for it. */
export interface ExpectationResult {
  type: ExpectationType;
  expected: unknown;
  passed: boolean;
  seen: unknown;
}

const contains = (text: string, part: string) => text.toLowerCase().includes(part.toLowerCase());

/** Whether `args` hold every key of `include`: strings contained (any case), other values deeply equal. */
export function argumentsMatch(args: Record<string, unknown>, include: Record<string, unknown> = {}): boolean {
  return Object.entries(include).every(([key, want]) => {
    if (!(key in args)) return false;
    const got = args[key];
    if (typeof want === 'string') return typeof got === 'string' && contains(got, want);
    return JSON.stringify(got) === JSON.stringify(want);
  });
}

/**
 * Judges each expectation against a run, one result per string of `replyIncludes` / `replyExcludes`, per
 * expected tool call and for `handOff` (docs/testing-your-assistant.md, "Expectations"). Replies are the
 * assistant's lines, the opening line included; strings match as substrings, any case.
 * - replyIncludes: passes when a reply contains it; seen: that reply, else every reply (newline-joined), else null.
 * - replyExcludes: passes when no reply contains it; seen: the first reply that does, else null.
 * - toolCall: passes when a call of that name has the arguments; seen: that call, else the calls of that name
 *   (an empty list when none was made).
 * - handOff: passes when the run handed off exactly as expected; seen: whether it did.
 */
export function evaluateExpectations(
  expect: ScenarioExpect,
  transcript: readonly RunTranscriptLine[],
  handedOff: boolean,
): ExpectationResult[] {
  const replies = transcript.filter((line) => line.role === 'assistant').map((line) => line.text);
  const calls = transcript.flatMap((line) => line.toolCalls ?? []);
  const results: ExpectationResult[] = [];
  for (const text of expect.replyIncludes ?? []) {
    const reply = replies.find((r) => contains(r, text));
    const seen = reply ?? (replies.length ? replies.join('\n') : null);
    results.push({ type: 'replyIncludes', expected: text, passed: reply !== undefined, seen });
  }
  for (const text of expect.replyExcludes ?? []) {
    const reply = replies.find((r) => contains(r, text));
    results.push({ type: 'replyExcludes', expected: text, passed: reply === undefined, seen: reply ?? null });
  }
  for (const want of expect.toolCalls ?? []) {
    const named = calls.filter((c) => c.name === want.name);
    const match = named.find((c) => argumentsMatch(c.arguments, want.argumentsInclude));
    results.push({ type: 'toolCall', expected: want, passed: match !== undefined, seen: match ?? named });
  }
  if (expect.handOff !== undefined) {
    results.push({ type: 'handOff', expected: expect.handOff, passed: expect.handOff === handedOff, seen: handedOff });
  }
  return results;
}
