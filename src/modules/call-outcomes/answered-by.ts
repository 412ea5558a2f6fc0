/**
 * Who picked up an outbound call (`answeredBy` on calls; docs/tools.md, "Voicemail"). `screener` is a
 * call-screening assistant (the phone's own bot asking who is calling): neither a person nor a voicemail box, and
 * what a reviewer's label may say a call reached (docs/answer-detection.md).
 */
export const ANSWERED_BY = ['human', 'voicemail', 'screener', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/**
 * What a call records as `answeredBy`: what the platform found, except that a call placed without machine
 * detection cannot tell a person from a machine that was talked to (`unknown`).
 */
export function recordedAnsweredBy(found: AnsweredBy | null | undefined, detect: boolean): AnsweredBy | null {
  if (!found) return null;
  return found === 'human' && !detect ? 'unknown' : found;
}
