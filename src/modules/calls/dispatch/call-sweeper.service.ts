import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { CallEventsService } from '../call-events.service';
import { PIPELINE_ERROR_REPORT } from '../voice/voice-provider';
import { CallDispatchQueue } from './call-dispatch-queue';

export const SWEEP_EVERY_MS = 5000;
/** A claim or a dispatch older than this without progress belongs to a worker that died. */
const STALE_AFTER = `interval '60 seconds'`;
/** Younger rows may simply not have had their job added yet (the insert commits before the enqueue). */
const GRACE = `interval '3 seconds'`;
const BATCH = 500;

/**
 * The safety net that makes PostgreSQL the source of truth: every tick, due calls without a pending job are
 * re-enqueued (losing Redis loses no call), stale claims are released, and calls a dead worker left in
 * `processing` without a platform id end in `error`.
 */
@Injectable()
export class CallSweeper {
  private readonly logger = new Logger(CallSweeper.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: CallDispatchQueue,
    private readonly events: CallEventsService,
  ) {}

  @OnJob({ name: JobName.SweepCalls, schedule: { every: SWEEP_EVERY_MS } })
  async sweep(): Promise<{ requeued: number; released: number; abandoned: number }> {
    const released: Array<{ id: string }> = (
      await this.dataSource.query(
        `UPDATE calls SET status = CASE WHEN scheduled_at IS NULL THEN 'new' ELSE 'scheduled' END, updated_at = now()
          WHERE status = 'lock-processing' AND updated_at < now() - ${STALE_AFTER} RETURNING id`,
      )
    )[0];

    const due: Array<{ id: string; scheduled_at: Date | null }> = await this.dataSource.query(
      `SELECT id, scheduled_at FROM calls
        WHERE status IN ('new', 'scheduled') AND (scheduled_at IS NULL OR scheduled_at <= now() + interval '1 second')
          AND (updated_at < now() - ${GRACE} OR id = ANY($1::uuid[]))
        ORDER BY scheduled_at NULLS FIRST LIMIT ${BATCH}`,
      [released.map((r) => r.id)],
    );
    let requeued = 0;
    for (const call of due) if (await this.queue.ensureEnqueued(call.id, null)) requeued++;

    const abandoned: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM calls WHERE status = 'processing' AND api_call_id IS NULL AND dispatched_at < now() - ${STALE_AFTER}
        LIMIT ${BATCH}`,
    );
    for (const call of abandoned) {
      await this.events.finish(call.id, null, PIPELINE_ERROR_REPORT);
    }
    if (requeued || released.length || abandoned.length) {
      this.logger.warn({ requeued, released: released.length, abandoned: abandoned.length }, 'Call sweep repaired');
    }
    return { requeued, released: released.length, abandoned: abandoned.length };
  }
}
