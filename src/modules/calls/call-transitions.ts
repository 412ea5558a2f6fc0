import { statusIn as sqlStatusIn } from '../../infra/database/status-in';
import { CALL_STATUSES, CallStatus } from './call.entity';

/**
 * The call state machine, in one place: the only status moves a call may make. CallsRepository's methods are
 * written against `CALL_MOVES` (their `WHERE status IN (...)` comes from here), call-transitions.spec.ts checks
 * every move against this table, and docs/architecture.md's diagram is generated from it.
 *
 * `lock-processing` is the dispatcher's claim: it reads as new/scheduled in public, and returns to waiting when
 * admission defers the call or the sweeper finds the claim stale.
 */
export const CALL_TRANSITIONS: Readonly<Record<CallStatus, readonly CallStatus[]>> = {
  new: ['lock-processing', 'cancelled'],
  scheduled: ['lock-processing', 'cancelled'],
  'lock-processing': ['processing', 'new', 'scheduled', 'error'],
  processing: ['ended', 'error', 'new', 'scheduled'],
  ended: [],
  cancelled: [],
  error: [],
};

/** How a call is born: outbound calls wait for dispatch; an inbound call is already live when it is recorded. */
export const INITIAL_CALL_STATUSES: readonly CallStatus[] = ['new', 'scheduled', 'processing'];

export interface CallMove {
  readonly from: readonly CallStatus[];
  /** Several targets when the statement picks one (back to `new` or `scheduled`; `ended` or `error`). */
  readonly to: readonly CallStatus[];
}

/** Back to waiting: `scheduled` when the call has a time, else `new`. */
const WAITING: readonly CallStatus[] = ['new', 'scheduled'];

/** Every status-changing method of CallsRepository, by name. */
export const CALL_MOVES = {
  /** A worker takes a due call for dispatch; exactly one claim wins. */
  claim: { from: WAITING, to: ['lock-processing'] },
  /** The customer cancels a call not yet claimed. */
  cancel: { from: WAITING, to: ['cancelled'] },
  /** Admitted, its minute reserved: the call goes to the voice platform. */
  start: { from: ['lock-processing'], to: ['processing'] },
  /** Over the organization's concurrency cap: the claim is given back until a slot frees. */
  requeue: { from: ['lock-processing'], to: WAITING },
  /** A claim older than the sweeper's limit belongs to a worker that died. */
  releaseStale: { from: ['lock-processing'], to: WAITING },
  /**
   * The voice platform could not take the call yet (its account's concurrency pool is full): back to waiting,
   * its minute still reserved, not before the platform's Retry-After.
   */
  defer: { from: ['processing'], to: WAITING },
  /** Refused at dispatch (destination rules or do-not-call while claimed, or no minute/plan once in processing). */
  failDispatch: { from: ['lock-processing', 'processing'], to: ['error'] },
  /** The platform's end-of-call report (or the supervisor's / sweeper's verdict). */
  finish: { from: ['processing'], to: ['ended', 'error'] },
} as const satisfies Record<string, CallMove>;

export type CallMoveName = keyof typeof CALL_MOVES;

/** Updates that leave the status alone but are only allowed in one (platform events on a live call). */
export const LIVE_CALL_STATUS: CallStatus = 'processing';

export function isTerminal(status: CallStatus): boolean {
  return CALL_TRANSITIONS[status].length === 0;
}

/** `status IN ('new', 'scheduled')` for SQL, from the table (partial indexes on `calls`: ix_calls_due, ix_calls_org_active). */
export function statusIn(statuses: readonly CallStatus[], column = 'status'): string {
  return sqlStatusIn(CALL_STATUSES, statuses, column);
}
