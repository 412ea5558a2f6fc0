import { ANSWERED_BY, AnsweredBy } from '../call-outcomes/answered-by';
import type { VoicePlatform } from '../../infra/config/platforms';

/** Label -> detected -> calls: every outcome on both axes, zeros included, so readers never miss a key. */
export type ConfusionMatrix = Record<AnsweredBy, Record<AnsweredBy, number>>;

export interface PlatformDetection {
  platform: VoicePlatform;
  labelled: number;
  matrix: ConfusionMatrix;
  voicemailPrecision: number | null;
  voicemailRecall: number | null;
}

export interface DetectionCount {
  platform: VoicePlatform;
  label: AnsweredBy;
  /** Null when the call recorded no `answeredBy`: detection gave no verdict, which counts as `unknown`. */
  detected: AnsweredBy | null;
  n: number;
}

function emptyMatrix(): ConfusionMatrix {
  const row = () => Object.fromEntries(ANSWERED_BY.map((d) => [d, 0])) as Record<AnsweredBy, number>;
  return Object.fromEntries(ANSWERED_BY.map((l) => [l, row()])) as ConfusionMatrix;
}

const ratio = (hit: number, of: number): number | null => (of === 0 ? null : hit / of);

/**
 * Voicemail precision: of the calls detected voicemail, the share a person also heard as voicemail. Recall: of
 * the calls a person heard as voicemail, the share detected voicemail; any other verdict there (`unknown`
 * included) is a miss. Null when its denominator is empty.
 */
export function platformDetection(platform: VoicePlatform, matrix: ConfusionMatrix): PlatformDetection {
  const labelled = ANSWERED_BY.reduce((sum, l) => sum + ANSWERED_BY.reduce((s, d) => s + matrix[l][d], 0), 0);
  const hits = matrix.voicemail.voicemail;
  const detectedVoicemail = ANSWERED_BY.reduce((sum, l) => sum + matrix[l].voicemail, 0);
  const labelledVoicemail = ANSWERED_BY.reduce((sum, d) => sum + matrix.voicemail[d], 0);
  return {
    platform,
    labelled,
    matrix,
    voicemailPrecision: ratio(hits, detectedVoicemail),
    voicemailRecall: ratio(hits, labelledVoicemail),
  };
}

/** The per-platform report from grouped counts, platforms in name order. */
export function detectionReport(counts: readonly DetectionCount[]): PlatformDetection[] {
  const matrices = new Map<VoicePlatform, ConfusionMatrix>();
  for (const { platform, label, detected, n } of counts) {
    const matrix = matrices.get(platform) ?? emptyMatrix();
    matrix[label][detected ?? 'unknown'] += n;
    matrices.set(platform, matrix);
  }
  return [...matrices.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([platform, matrix]) => platformDetection(platform, matrix));
}
