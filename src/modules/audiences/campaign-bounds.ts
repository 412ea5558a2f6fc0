/** Bounds of a campaign (documented in OpenAPI and the README). */
export const CAMPAIGN_BOUNDS = {
  audience: 10_000,
  maxConcurrent: 100,
  callsPerMinute: 600,
  retryDelaySeconds: 7 * 24 * 3600,
  maxAttempts: 10,
  /** Extension: the numbers one campaign spreads its calls over, and each one's calls a day. */
  fromNumbers: 50,
  maxCallsPerNumberPerDay: 1000,
} as const;

/** endedReason values a retry policy may name. */
export const RETRYABLE_REASONS = [
  'customer-did-not-answer',
  'voicemail-reached',
  'customer-busy',
  'pipeline-error',
] as const;
