import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { KeyedBatcher } from '../../../common/concurrency/keyed-batcher';
import { LedgerReservationResult, Metrics } from '../../../infra/metrics/metrics';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { OutboxService } from '../../outbox/outbox.service';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import {
  DESTINATION_NOT_ALLOWED_REASON,
  DestinationPolicyService,
} from '../../destinations/destination-policy.service';
import { transferNumbers, withoutDestinations } from '../../tools/call-tools';
import { CallAdmission } from '../../limits/call-admission';
import { isPooled } from '../../limits/pooled-platform';
import { CallBilling } from '../../usage/call-billing.port';
import { Call } from '../call.entity';
import { CallEventsService } from '../call-events.service';
import { finishedCallPayload } from '../call-event-payloads';
import { CallsRepository, DispatchFailure } from '../calls.repository';
import { PIPELINE_ERROR_REPORT, PlaceCallResult } from '../voice/voice-provider';
import { CallDispatchQueue } from './call-dispatch-queue';
import { PlatformFailover } from './platform-failover';
import { inTransaction } from '../../../infra/database/tx';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.DispatchCall]: { callId: string };
  }
}

/** docs/contracts/conventions.md: the endedReason of a call that reached dispatch without a billable minute or plan. */
const BLOCKED_REASON = {
  OUTBOUND_MINUTES_EXHAUSTED: 'outbound-minutes-exhausted',
  OUTBOUND_PLAN_REQUIRED: 'outbound-plan-required',
} as const;

const RESERVATION_RESULT = {
  OUTBOUND_MINUTES_EXHAUSTED: 'outbound_minutes_exhausted',
  OUTBOUND_PLAN_REQUIRED: 'outbound_plan_required',
} as const satisfies Record<keyof typeof BLOCKED_REASON, LedgerReservationResult>;

/** Extension (docs/contracts/dialer.md): the endedReason of a queued call whose number was put on the do-not-call list. */
export const DO_NOT_CALL_REASON = 'do-not-call';

/** Calls of one organization reserved in one transaction at most (bounds the time the balance lock is held). */
const MAX_DISPATCH_BATCH = 100;
/** Calls claimed in one statement at most. */
const MAX_CLAIM_BATCH = 100;
/** Claims of every organization share one batch: the job names only the call, its organization is read by the claim. */
const ANY_ORGANIZATION = '';

/**
 * Dispatches one call: claim it atomically (`new|scheduled -> lock-processing`, one statement, so any number of
 * workers dispatch it once), reserve its minute and move it to `processing` in one transaction (shared with the
 * organization's other calls being dispatched at that moment), then hand it to the voice platform. The claim's
 * statement, too, is shared with the other dispatches running at that moment: a burst of due calls costs a
 * round trip per batch, not per call.
 */
@Injectable()
export class CallDispatcherJob {
  private readonly logger = new Logger(CallDispatcherJob.name);
  /** Dispatches of one organization that fall due together share one reservation transaction. */
  private readonly starts = new KeyedBatcher<Call, Call | null>(
    (organizationId, calls) => this.reserveAndStart(organizationId, calls),
    MAX_DISPATCH_BATCH,
  );
  private readonly claims = new KeyedBatcher<string, Call | null>((_, callIds) => this.claim(callIds), MAX_CLAIM_BATCH);

  constructor(
    private readonly dataSource: DataSource,
    private readonly calls: CallsRepository,
    private readonly outbox: OutboxService,
    private readonly billing: CallBilling,
    private readonly failover: PlatformFailover,
    private readonly events: CallEventsService,
    private readonly metrics: Metrics,
    private readonly admission: CallAdmission,
    private readonly doNotCall: DoNotCallService,
    private readonly destinations: DestinationPolicyService,
    private readonly dispatchQueue: CallDispatchQueue,
  ) {}

  @OnJob({ name: JobName.DispatchCall })
  async dispatch({ callId }: { callId: string }): Promise<void> {
    const claimed = await this.claims.submit(ANY_ORGANIZATION, callId);
    if (!claimed) return;
    const call = await this.starts.submit(claimed.organizationId, claimed);
    if (!call) return;
    this.observeDispatchLatency(call);
    const result = await this.failover.place(call);
    if (result.kind === 'deferred') return this.defer(call, result);
    if (result.kind === 'rejected') {
      this.logger.warn({ callId, endedReason: result.endedReason }, 'Voice platform refused the call');
      await this.events.finish(callId, null, { ...PIPELINE_ERROR_REPORT, endedReason: result.endedReason });
      return;
    }
    await this.events.started(callId, result.providerCallId);
  }

  /**
   * The platform's pool was full after all (another user of the account, or our count ran ahead of its own), or
   * the platform was unavailable and the call's number has no fallback: the call waits again, its minute still
   * reserved, and a dispatch job is due once the platform's Retry-After (or the backoff) has passed (the sweeper
   * repairs a lost one; the claim refuses to run it earlier).
   */
  private async defer(call: Call, deferred: Extract<PlaceCallResult, { kind: 'deferred' }>): Promise<void> {
    const retryAt = new Date(Date.now() + deferred.retryAfterMs);
    const unavailable = deferred.attempt
      ? { attempt: deferred.attempt, unconfirmed: deferred.unconfirmed === true }
      : null;
    if (!(await this.calls.defer(call.id, retryAt, deferred.blockedProviderCallId, unavailable))) return;
    this.metrics.voicePlatformDeferred.inc();
    this.logger.warn({ callId: call.id, reason: deferred.reason, retryAt }, 'Voice platform deferred the call');
    await this.dispatchQueue.enqueueRetry(call.id, retryAt);
  }

  /**
   * One claim statement for the batch. A call named by two jobs of the batch (its own job and a retry job falling
   * due together) goes to the first only: handed to both, it would be reserved and placed twice.
   */
  private async claim(callIds: string[]): Promise<(Call | null)[]> {
    const claimed = new Map((await this.calls.claimMany(callIds)).map((c) => [c.id, c]));
    return callIds.map((id) => {
      const call = claimed.get(id) ?? null;
      claimed.delete(id);
      return call;
    });
  }

  /**
   * Moves a batch of one organization's claimed calls to `processing` and reserves their minutes, in one
   * transaction; calls none can be reserved for end in `error`. The calls' own rows go first: the reservation
   * takes the organization's balance lock, which every other dispatch and settlement of that organization waits
   * for, so it comes last and is held only until the commit. Both call updates require the claim: a call whose
   * stale claim the sweeper released meanwhile is left out (another dispatch owns it now).
   */
  private async reserveAndStart(organizationId: string, claimed: Call[]): Promise<(Call | null)[]> {
    const results = new Map<string, LedgerReservationResult>();
    let refusedNow: Call[] = [];
    const started = await inTransaction(this.dataSource, async (m) => {
      const { admitted, refused } = await this.admit(m, organizationId, claimed);
      refusedNow = refused.map((r) => r.call);
      await this.restrictTransfers(m, organizationId, admitted);
      const processing = await this.calls.start(
        m,
        admitted.map((c) => c.id),
      );
      // In the claim order, so minutes go to the calls in the order they were submitted. Test-mode calls are
      // free (docs/contracts/modes.md): they reserve nothing and are never blocked.
      const moved = new Map(processing.map((c) => [c.id, c]));
      const reservations = await this.billing.reserveForDispatch(
        m,
        organizationId,
        admitted.map((c) => c.id).filter((id) => moved.get(id)?.livemode),
      );
      const blocked: DispatchFailure[] = refused.map((r) => ({ id: r.call.id, endedReason: r.endedReason }));
      for (const [id, reservation] of reservations) {
        results.set(id, reservation.reserved ? 'reserved' : RESERVATION_RESULT[reservation.reason]);
        if (!reservation.reserved) blocked.push({ id, endedReason: BLOCKED_REASON[reservation.reason] });
      }
      if (blocked.length) {
        const failed = await this.calls.failDispatch(m, blocked);
        await this.outbox.recordMany(
          m,
          failed.map((call) => ({ owner: call, type: 'call.failed', payload: finishedCallPayload(call) })),
        );
      }
      const started = processing.filter((c) => !c.livemode || reservations.get(c.id)?.reserved);
      return new Map(started.map((c) => [c.id, c]));
    });
    // Counted once committed: a rolled-back batch reserved nothing.
    for (const result of results.values()) this.metrics.ledgerReservation(result);
    // A call the platform deferred kept its minute reserved; refused now, it gives it back.
    for (const call of refusedNow) if (call.retryAt) await this.billing.releaseDeferred(organizationId, call.id);
    return claimed.map((c) => started.get(c.id) ?? null);
  }

  /**
   * Admission control (limits/call-admission.ts): under the organization's admission lock, calls to a number the
   * organization's destination rules refuse now (docs/contracts/destinations.md: rules may have changed since the
   * call was created or scheduled) or on the do-not-call ledger are refused (the lock makes a listing committed
   * before this point visible here); of the others, the oldest up to the free slots go on (a call on the pooled
   * platform also needs a slot of that platform's shared pool, decided under that pool's lock), and the rest return to
   * waiting, untouched otherwise (their minutes are not reserved), to be enqueued again when a live call ends.
   */
  private async admit(
    m: EntityManager,
    organizationId: string,
    claimed: Call[],
  ): Promise<{ admitted: Call[]; refused: Array<{ call: Call; endedReason: string }> }> {
    const free = await this.admission.lockFreeOutboundSlots(m, organizationId);
    // Each pooled platform's free slots, decided under its pool's lock (taken in the platforms' order).
    const poolFree = new Map<Call['platform'], number>();
    if (free > 0) {
      for (const platform of new Set(claimed.map((c) => c.platform).filter(isPooled)).values()) {
        poolFree.set(platform, await this.admission.lockFreePoolSlots(m, organizationId, platform));
      }
    }
    const refused = new Map<Call, string>();
    // The destination rules are the organization's, the same in both worlds.
    const notAllowed = await this.destinations.refused(
      m,
      organizationId,
      claimed.map((c) => c.callTo),
    );
    for (const c of claimed) if (notAllowed.has(c.callTo)) refused.set(c, DESTINATION_NOT_ALLOWED_REASON);
    // Each call against its own world's ledger: a test listing never blocks a live call, nor the reverse.
    for (const livemode of [true, false]) {
      const calls = claimed.filter((c) => c.livemode === livemode);
      if (!calls.length) continue;
      const world = { organizationId, livemode };
      const listed = await this.doNotCall.listedAmong(
        m,
        world,
        calls.map((c) => c.callTo),
      );
      for (const c of calls) if (listed.has(c.callTo) && !refused.has(c)) refused.set(c, DO_NOT_CALL_REASON);
    }
    const due = (c: Call) => (c.scheduledAt ?? c.createdAt).getTime();
    const oldestFirst = claimed.filter((c) => !refused.has(c)).sort((a, b) => due(a) - due(b));
    const admitted: Call[] = [];
    const waiting: Call[] = [];
    for (const call of oldestFirst) {
      // Calls on a pooled platform need a slot of the organization and one of the platform's shared pool.
      const room = poolFree.get(call.platform) ?? Infinity;
      const fits = admitted.length < free && room > 0;
      (fits ? admitted : waiting).push(call);
      if (fits && poolFree.has(call.platform)) poolFree.set(call.platform, room - 1);
    }
    if (waiting.length) {
      await this.calls.requeue(
        m,
        waiting.map((c) => c.id),
      );
    }
    return { admitted, refused: [...refused].map(([call, endedReason]) => ({ call, endedReason })) };
  }

  /**
   * The transfer destinations of admitted calls checked again now, before the platform gets them (the last
   * point we decide where a call may be forwarded, docs/contracts/destinations.md): refused ones are dropped
   * from the call's tools, so neither the platform nor the simulator can transfer there.
   */
  private async restrictTransfers(m: EntityManager, organizationId: string, admitted: Call[]): Promise<void> {
    const refused = await this.destinations.refused(
      m,
      organizationId,
      admitted.flatMap((c) => transferNumbers(c.tools)),
    );
    if (!refused.size) return;
    const numbers = new Set(refused.keys());
    const updates = admitted.flatMap((c) => {
      const tools = withoutDestinations(c.tools, numbers);
      return tools ? [{ id: c.id, tools }] : [];
    });
    await this.calls.restrictClaimedTools(m, updates);
  }

  /** How long a due call waited for a worker: from when it was due (scheduledAt, else createdAt) to processing. */
  private observeDispatchLatency(call: Call): void {
    const due = (call.scheduledAt ?? call.createdAt).getTime();
    const dispatched = (call.dispatchedAt ?? new Date()).getTime();
    this.metrics.dispatchLatency.observe(Math.max(0, dispatched - due) / 1000);
  }
}
