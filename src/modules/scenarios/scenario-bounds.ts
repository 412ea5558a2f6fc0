/** The bounds of a scenario (docs/testing-your-assistant.md, "Bounds"); each limit accepted, one more refused. */
export const SCENARIO_BOUNDS = {
  name: 200,
  turns: 20,
  turnText: 2000,
  /** Strings in replyIncludes, and in replyExcludes. */
  replyStrings: 20,
  replyText: 500,
  toolCalls: 10,
  toolName: 64,
  /** Keys of one expected tool call's argumentsInclude, and its size serialised. */
  argumentKeys: 20,
  argumentBytes: 4096,
  /** Scenarios of one case in one world (a run of the case's scenarios runs them all at once). */
  perCase: 20,
} as const;
