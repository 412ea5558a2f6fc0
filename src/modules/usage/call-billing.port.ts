import type { EntityManager } from 'typeorm';
import { Tx } from '../../infra/database/tx';

export type OutboundBlockedReason = 'OUTBOUND_MINUTES_EXHAUSTED' | 'OUTBOUND_PLAN_REQUIRED';

export type DispatchReservation = { reserved: true } | { reserved: false; reason: OutboundBlockedReason };

export interface CallSettlement {
  organizationId: string;
  callId: string;
  direction: 'outbound' | 'inbound';
  /** Exact talk time; null or 0 when the call never connected (the reservation is then released). */
  durationSeconds: number | null;
  /** The voice platform's call id (`apiCallId`), shown as `providerCallId` in usage history. */
  providerCallId: string | null;
}

/**
 * The one narrow interface between the calls module and the minute ledger (the usage module).
 * Implemented by the usage module; calls never touch ledger tables directly.
 */
export abstract class CallBilling {
  /**
   * Null when the organization may place an outbound call now; otherwise why not (drives 402/403 on POST /calls).
   * Outside any transaction; a caller holding one uses outboundBlockedReasonIn.
   */
  abstract outboundBlockedReason(organizationId: string): Promise<OutboundBlockedReason | null>;

  /**
   * The same check on the caller's manager: its transaction's when it holds one (a caller that holds a pool
   * connection and asked for a second one could wait forever once every connection is held by such a caller), or
   * the pool's. One statement either way.
   */
  abstract outboundBlockedReasonIn(
    manager: EntityManager,
    organizationId: string,
  ): Promise<OutboundBlockedReason | null>;

  /**
   * Atomically reserves one billable minute for dispatching each of these calls of one organization, inside the
   * caller's transaction, so N concurrent dispatches against K available minutes reserve exactly min(N, K);
   * minutes go to the calls in the order given. Idempotent per call. One outcome per call id.
   */
  abstract reserveForDispatch(
    tx: Tx,
    organizationId: string,
    callIds: readonly string[],
  ): Promise<Map<string, DispatchReservation>>;

  /** Replaces the call's reservation with its started minutes (per-minute billing). Idempotent per call. */
  abstract settleCall(settlement: CallSettlement): Promise<void>;

  /**
   * `settleCall` for calls of one organization, inside the caller's transaction: the one that moved these calls
   * out of `processing`, so a call is settled exactly when it ends (one commit for both) and a redelivered end,
   * finding the call ended, settles nothing. Takes the organization's balance lock, held until the caller commits:
   * the caller takes it last. Idempotent per call, as settleCall.
   */
  abstract settleCallsIn(tx: Tx, settlements: readonly CallSettlement[]): Promise<void>;

  /**
   * Gives back the minute of an outbound call that was reserved at a dispatch the voice platform deferred, when
   * the call ends without being placed (cancelled, or refused at its next dispatch): a settlement of no talk
   * time. Idempotent per call.
   */
  releaseDeferred(organizationId: string, callId: string): Promise<void> {
    return this.settleCall({
      organizationId,
      callId,
      direction: 'outbound',
      durationSeconds: null,
      providerCallId: null,
    });
  }
}
