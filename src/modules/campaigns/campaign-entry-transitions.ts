import { statusIn } from '../../infra/database/status-in';
import { ENTRY_STATUSES, EntryStatus } from './campaign-entry.entity';

/**
 * The campaign entry state machine, in one place: an entry waits (`pending`), is dialled (`in_progress`), and
 * its call's end makes it `done`, `skipped` or `pending` again (a retry). CampaignEntriesRepository's status moves
 * are written against `ENTRY_MOVES` (their `WHERE status IN (...)` comes from here); campaign-entry-transitions
 * .spec.ts checks every move against the table. `done` and `skipped` are final.
 */
export const ENTRY_TRANSITIONS: Readonly<Record<EntryStatus, readonly EntryStatus[]>> = {
  pending: ['in_progress', 'skipped'],
  in_progress: ['pending', 'done', 'skipped'],
  done: [],
  skipped: [],
};

export interface EntryMove {
  readonly from: readonly EntryStatus[];
  /** Several targets when the statement carries one per row (an attempt's outcome). */
  readonly to: readonly EntryStatus[];
}

/** Every status-changing method of CampaignEntriesRepository, by name. */
export const ENTRY_MOVES = {
  /** A due entry's call was created. */
  dial: { from: ['pending'], to: ['in_progress'] },
  /** A due entry that cannot be called (its number is on the do-not-call list). */
  skip: { from: ['pending'], to: ['skipped'] },
  /** The entry's call finished: done, skipped, or waiting for a retry. */
  applyOutcome: { from: ['in_progress'], to: ['pending', 'done', 'skipped'] },
} as const satisfies Record<string, EntryMove>;

/** The status an attempt's outcome gives its entry. */
export type EntryOutcomeStatus = (typeof ENTRY_MOVES.applyOutcome.to)[number];

/** Entries the campaign still has to finish (its completion waits for none to be left). */
export const OPEN_ENTRY_STATUSES: readonly EntryStatus[] = ENTRY_STATUSES.filter(
  (s) => ENTRY_TRANSITIONS[s].length > 0,
);

/** `status IN (...)` for SQL over campaign entries. */
export const entryStatusIn = (statuses: readonly EntryStatus[], column = 'status'): string =>
  statusIn(ENTRY_STATUSES, statuses, column);
