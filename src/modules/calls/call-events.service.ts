import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobName } from '../../infra/queue/queue-names';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { OutboxService } from '../outbox/outbox.service';
import { CallBilling } from '../usage/call-billing.port';
import { Call } from './call.entity';
import { CallResponse } from './call.response';
import { callRows } from './call-rows';
import { EndOfCallReport, PlatformEvent } from './voice/voice-provider';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order platform statuses move in; a status at or below the current one is a late or repeated event. */
const STATUS_ORDER = `ARRAY['queued','ringing','in-progress','forwarding','ended']`;
const rank = (expr: string) => `COALESCE(array_position(${STATUS_ORDER}, ${expr}), 0)`;

/**
 * Applies what the voice platform reports to the call record. Every write is one conditional statement, so
 * events may arrive late, twice or out of order: statuses never regress, the transcript never shrinks, and a
 * call finishes once (`WHERE status = 'processing'`), settling its minutes and firing exactly one of
 * call.ended / call.failed.
 */
@Injectable()
export class CallEventsService {
  private readonly logger = new Logger(CallEventsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly billing: CallBilling,
  ) {}

  @OnJob({ name: JobName.ApplyVoiceEvent })
  async apply(event: PlatformEvent): Promise<void> {
    switch (event.kind) {
      case 'status':
        await this.dataSource.query(
          `UPDATE calls SET api_call_status = $2, updated_at = now()
            WHERE id = $1 AND status = 'processing' AND ${rank('api_call_status')} < ${rank('$2::text')}`,
          [event.callId, event.status],
        );
        return;
      case 'conversation':
        await this.dataSource.query(
          `UPDATE calls SET transcript = $2::jsonb, updated_at = now()
            WHERE id = $1 AND status = 'processing' AND jsonb_array_length(transcript) < jsonb_array_length($2::jsonb)`,
          [event.callId, JSON.stringify(event.messages)],
        );
        return;
      case 'utterance':
        // Appended unless an equal line is already there (a redelivery, or a conversation update carried it).
        await this.dataSource.query(
          `UPDATE calls SET transcript = transcript || jsonb_build_array($2::jsonb), updated_at = now()
            WHERE id = $1 AND status = 'processing' AND NOT transcript @> jsonb_build_array($2::jsonb)`,
          [event.callId, JSON.stringify(event.message)],
        );
        return;
      case 'end-of-call':
        await this.finish(event.callId, event.providerCallId, event.report);
        return;
    }
  }

  /**
   * The call a platform message is about: by the platform's id (recorded once POST /call returned), else by
   * our id carried in the message's metadata (a message may overtake that response).
   */
  async findCallId(providerCallId: string | null, callId: string | null): Promise<string | null> {
    const ourId = callId && UUID.test(callId) ? callId : null;
    if (!providerCallId && !ourId) return null;
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM calls WHERE ($1::text IS NOT NULL AND api_call_id = $1) OR id = $2::uuid
        ORDER BY (api_call_id = $1) DESC NULLS LAST LIMIT 1`,
      [providerCallId, ourId],
    );
    return rows[0]?.id ?? null;
  }

  /** The platform accepted the call: record its id and fire call.started (once, whoever gets here first). */
  async started(callId: string, providerCallId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const [call] = await callRows(
        m,
        `UPDATE calls SET api_call_id = $2, api_call_status = COALESCE(api_call_status, 'queued'), updated_at = now()
          WHERE id = $1 AND api_call_id IS NULL RETURNING *`,
        [callId, providerCallId],
      );
      if (call) await this.outbox.record(m, call.organizationId, 'call.started', { ...CallResponse.from(call) });
    });
  }

  /**
   * Ends a processing call. The minutes are settled before the status changes: settleCall is idempotent per
   * call, so a crash in between is repaired by the retried event, and only the one statement that moves the
   * call out of `processing` records the terminal event.
   */
  async finish(callId: string, providerCallId: string | null, report: EndOfCallReport): Promise<void> {
    const call = await this.dataSource.getRepository(Call).findOneBy({ id: callId });
    if (!call || call.status !== 'processing') return;
    await this.billing.settleCall({
      organizationId: call.organizationId,
      callId,
      direction: call.direction,
      durationSeconds: report.durationSeconds,
      providerCallId: call.apiCallId ?? providerCallId,
    });
    await this.dataSource.transaction(async (m) => {
      const [ended] = await callRows(
        m,
        `UPDATE calls SET status = $2, api_call_status = 'ended', api_call_id = COALESCE(api_call_id, $3),
                ended_reason = $4, result_status = $5, duration_seconds = $6, recording_url = $7,
                transcript = CASE WHEN jsonb_array_length(transcript) < jsonb_array_length($8::jsonb)
                                  THEN $8::jsonb ELSE transcript END,
                ended_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'processing' RETURNING *`,
        [
          callId,
          report.failed ? 'error' : 'ended',
          providerCallId,
          report.endedReason,
          report.resultStatus,
          report.durationSeconds,
          report.recordingUrl,
          JSON.stringify(report.transcript),
        ],
      );
      if (!ended) return;
      await this.outbox.record(m, ended.organizationId, report.failed ? 'call.failed' : 'call.ended', {
        ...CallResponse.from(ended),
      });
      this.logger.debug({ callId, status: ended.status, endedReason: ended.endedReason }, 'Call finished');
    });
  }
}
