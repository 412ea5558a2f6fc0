import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
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

/**
 * Dispatches one call: claim it atomically (`new|scheduled -> lock-processing`, one statement, so any number of
 * workers dispatch it once), reserve its minute and move it to `processing` in one transaction, then hand it
 * to the voice platform.
 */
@Injectable()
export class CallDispatcher {
  private readonly logger = new Logger(CallDispatcher.name);

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
    const call = await this.reserveAndStart(claimed);
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
   * Moves the call to `processing` and reserves its minute, or ends it in `error` when none can be reserved.
   * The call's own row goes first: the reservation takes the organization's balance lock, which every other
   * dispatch and settlement of that organization waits for, so it comes last and is held only until the commit.
   * Both call updates require the claim: if the sweeper released a stale claim meanwhile, the transaction rolls
   * back (and with it the reservation).
   */
  private async reserveAndStart(claimed: Call): Promise<Call | null> {
    let result: LedgerReservationResult | undefined;
    const call = await this.dataSource.transaction(async (m) => {
      const [processing] = await callRows(
        m,
        `UPDATE calls SET status = 'processing', dispatched_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'lock-processing' RETURNING *`,
        [claimed.id],
      );
      if (!processing) throw new Error(`Call ${claimed.id} lost its claim`);
      const reservation = await this.billing.reserveForDispatch(m, claimed.organizationId, claimed.id);
      result = reservation.reserved ? 'reserved' : RESERVATION_RESULT[reservation.reason];
      if (reservation.reserved) return processing;
      const [failed] = await callRows(
        m,
        `UPDATE calls SET status = 'error', ended_reason = $2, dispatched_at = NULL, ended_at = now(),
                updated_at = now()
          WHERE id = $1 RETURNING *`,
        [claimed.id, BLOCKED_REASON[reservation.reason]],
      );
      await this.outbox.record(m, failed.organizationId, 'call.failed', { ...CallResponse.from(failed) });
      return null;
    });
    // Counted once committed: a rolled-back attempt (lost claim) reserved nothing.
    if (result) this.metrics.ledgerReservation(result);
    return call;
  }

  /** How long a due call waited for a worker: from when it was due (scheduledAt, else createdAt) to processing. */
  private observeDispatchLatency(call: Call): void {
    const due = (call.scheduledAt ?? call.createdAt).getTime();
    const dispatched = (call.dispatchedAt ?? new Date()).getTime();
    this.metrics.dispatchLatency.observe(Math.max(0, dispatched - due) / 1000);
  }
}
