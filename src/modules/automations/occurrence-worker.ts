import { parentPort } from 'node:worker_threads';
import { nextOccurrence } from './next-occurrence';

/** One question to the occurrence thread (dates as epoch milliseconds). */
export interface OccurrenceQuestion {
  rule: string;
  zone: string;
  dtstart: number;
  after: number;
}

/** Its answer: the next occurrence (epoch ms) or null, or the rule's parse error. */
export type OccurrenceAnswer = { next: number | null } | { error: string };

/**
 * The entry point of the thread that computes occurrences (started by OccurrencesService, never imported by the
 * application): rrule walks every period up to the year 9999 looking for a match, which for a rule that never
 * matches takes seconds, so it runs here, where the caller can stop it, and not on the event loop.
 */
parentPort?.on('message', (question: OccurrenceQuestion) => {
  let answer: OccurrenceAnswer;
  try {
    const next = nextOccurrence(question.rule, question.zone, new Date(question.dtstart), new Date(question.after));
    answer = { next: next ? next.getTime() : null };
  } catch (error) {
    answer = { error: (error as Error).message };
  }
  parentPort!.postMessage(answer);
});
// Loaded, warmed up (rrule's and luxon's code run once, so the first question is not also their first run) and
// listening: questions may come, and the caller's budget then counts their computation only.
if (parentPort) {
  const now = new Date();
  nextOccurrence('FREQ=DAILY;BYHOUR=9', 'Europe/Paris', now, now);
  parentPort.postMessage('ready');
}
