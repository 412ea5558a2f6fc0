import type { NumberHealthStatus } from './number-health.entity';

/** The placed calls a number's recent answer rate is taken over; fewer than this and it is `healthy`. */
export const RECENT_WINDOW = 50;
/** The days of the number's own history its recent calls are compared with. */
export const BASELINE_DAYS = 30;

export interface AnswerCounts {
  placed: number;
  human: number;
}

/**
 * A number's status by its own history (docs/number-health.md): over its last RECENT_WINDOW placed calls (at
 * least that many), an answer rate below half of its BASELINE_DAYS answer rate is `degraded`, below three
 * quarters `watch`. A number whose calls never reach a person has nothing to fall from: `healthy`.
 */
export function healthStatus(recent: readonly boolean[], baseline: AnswerCounts): NumberHealthStatus {
  if (recent.length < RECENT_WINDOW || baseline.placed === 0 || baseline.human === 0) return 'healthy';
  const window = recent.slice(-RECENT_WINDOW);
  const recentRate = window.filter(Boolean).length / window.length;
  const baselineRate = baseline.human / baseline.placed;
  if (recentRate < baselineRate / 2) return 'degraded';
  if (recentRate < (baselineRate * 3) / 4) return 'watch';
  return 'healthy';
}
