/** The voice platforms a call can be placed on (docs/answer-detection.md). */
export const CALL_PLATFORMS = ['simulator', 'vapi', 'retell'] as const;
export type CallPlatform = (typeof CALL_PLATFORMS)[number];

/**
 * The platform that served a call, as SQL over the `calls` row aliased `alias`: a test-world call always ran on
 * the simulator, a live one on the configured platform. The one place that derives it, so reports and filters
 * read it alike and a stored per-call platform replaces this expression alone.
 */
export function callPlatformSql(alias: string, livePlatform: CallPlatform): string {
  // Inlined as a literal: the value comes from the closed list above, never from input.
  if (!CALL_PLATFORMS.includes(livePlatform)) throw new Error(`Unknown voice platform ${String(livePlatform)}`);
  return `(CASE WHEN ${alias}.livemode THEN '${livePlatform}' ELSE 'simulator' END)`;
}
