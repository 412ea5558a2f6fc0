import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeyedBatcher } from '../../../common/concurrency/keyed-batcher';
import { LedgerReservationResult, Metrics } from '../../../infra/metrics/metrics.service';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { OutboxService } from '../../outbox/outbox.service';
import { CallBilling } from '../../usage/call-billing.port';
import { Call } from '../call.entity';
import { CallEventsService } from '../call-events.service';
import { CallResponse } from '../call.response';
import { callRows } from '../call-rows';
import { PIPELINE_ERROR_REPORT, VoiceCallRejected, VoiceProvider } from '../voice/voice-provider';

/** CONTRACTS §3: the endedReason of a call that reached dispatch without a billable minute or plan. */
const BLOCKED_REASON = {
  OUTBOUND_MINUTES_EXHAUSTED: 'outbound-minutes-exhausted',
  OUTBOUND_PLAN_REQUIRED: 'outbound-plan-required',
} as const;

const RESERVATION_RESULT = {
  OUTBOUND_MINUTES_EXHAUSTED: 'outbound_minutes_exhausted',
  OUTBOUND_PLAN_REQUIRED: 'outbound_plan_required',
} as const satisfies Record<keyof typeof BLOCKED_REASON, LedgerReservationResult>;

/** Calls of one organization reserved in one transaction at most (bounds the time the balance lock is held). */
const MAX_DISPATCH_BATCH = 100;

/**
 * Dispatches one call: claim it atomically (`new|scheduled -> lock-processing`, one statement, so any number of
 * workers dispatch it once), reserve its minute and move it to `processing` in one transaction (shared with the
 * organization's other calls being dispatched at that moment), then hand it to the voice platform.
 */
@Injectable()
export class CallDispatcher {
  private readonly logger = new Logger(CallDispatcher.name);
  /** Dispatches of one organization that fall due together share one reservation transaction. */
  private readonly starts = new KeyedBatcher<Call, Call | null>(
    (organizationId, calls) => this.reserveAndStart(organizationId, calls),
    MAX_DISPATCH_BATCH,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly billing: CallBilling,
    private readonly voice: VoiceProvider,
    private readonly events: CallEventsService,
    private readonly metrics: Metrics,
  ) {}

  @OnJob({ name: JobName.DispatchCall })
  async dispatch({ callId }: { callId: string }): Promise<void> {
    // The 1 s slack absorbs a delayed job firing a hair early; a call not yet due stays for the sweeper.
    const [claimed] = await callRows(
      this.dataSource.manager,
      `UPDATE calls SET status = 'lock-processing', updated_at = now()
        WHERE id = $1 AND status IN ('new', 'scheduled')
          AND (scheduled_at IS NULL OR scheduled_at <= now() + interval '1 second')
        RETURNING *`,
      [callId],
    );
    if (!claimed) return;
    const call = await this.starts.submit(claimed.organizationId, claimed);
    if (!call) return;
    this.observeDispatchLatency(call);
    let providerCallId: string;
    try {
      ({ providerCallId } = await this.voice.placeCall(call));
    } catch (error) {
      this.logger.warn({ callId, err: (error as Error).message }, 'Voice platform refused the call');
      const endedReason = error instanceof VoiceCallRejected ? error.endedReason : PIPELINE_ERROR_REPORT.endedReason;
      await this.events.finish(callId, null, { ...PIPELINE_ERROR_REPORT, endedReason });
      return;
    }
    await this.events.started(callId, providerCallId);
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
    const started = await this.dataSource.transaction(async (m) => {
      const processing = await callRows(
        m,
        `UPDATE calls SET status = 'processing', dispatched_at = now(), updated_at = now()
          WHERE id = ANY($1) AND status = 'lock-processing' RETURNING *`,
        [claimed.map((c) => c.id)],
      );
      // In the claim order, so minutes go to the calls in the order they were submitted.
      const moved = new Set(processing.map((c) => c.id));
      const reservations = await this.billing.reserveForDispatch(
        m,
        organizationId,
        claimed.map((c) => c.id).filter((id) => moved.has(id)),
      );
      const blocked: { id: string; reason: string }[] = [];
      for (const [id, reservation] of reservations) {
        results.set(id, reservation.reserved ? 'reserved' : RESERVATION_RESULT[reservation.reason]);
        if (!reservation.reserved) blocked.push({ id, reason: BLOCKED_REASON[reservation.reason] });
      }
      if (blocked.length) {
        const failed = await callRows(
          m,
          `UPDATE calls c SET status = 'error', ended_reason = b.reason, dispatched_at = NULL, ended_at = now(),
                  updated_at = now()
             FROM jsonb_to_recordset($1::jsonb) AS b(id uuid, reason text)
            WHERE c.id = b.id RETURNING c.*`,
          [JSON.stringify(blocked)],
        );
        await this.outbox.recordMany(
          m,
          failed.map((call) => ({ organizationId, type: 'call.failed', data: { ...CallResponse.from(call) } })),
        );
      }
      return new Map(processing.filter((c) => reservations.get(c.id)?.reserved).map((c) => [c.id, c]));
    });
    // Counted once committed: a rolled-back batch reserved nothing.
    for (const result of results.values()) this.metrics.ledgerReservation(result);
    return claimed.map((c) => started.get(c.id) ?? null);
  }

  /** How long a due call waited for a worker: from when it was due (scheduledAt, else createdAt) to processing. */
  private observeDispatchLatency(call: Call): void {
    const due = (call.scheduledAt ?? call.createdAt).getTime();
    const dispatched = (call.dispatchedAt ?? new Date()).getTime();
    this.metrics.dispatchLatency.observe(Math.max(0, dispatched - due) / 1000);
  }
}
