import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { CallEventsService } from '../call-events.service';
import { CallsRepository } from '../calls.repository';
import { PIPELINE_ERROR_REPORT } from '../voice/voice-provider';
import { CallDispatchQueue } from './call-dispatch-queue';
import type { NoJobData } from '../../../infra/queue/job-data';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SweepCalls]: NoJobData;
  }
}

export const SWEEP_EVERY_MS = 5000;
/** Younger rows may simply not have had their job added yet (the insert commits before the enqueue). */
const GRACE_SECONDS = 3;
const BATCH = 500;

/**
 * The safety net that makes PostgreSQL the source of truth: every tick, due calls without a pending job are
 * re-enqueued (losing Redis loses no call), stale claims are released, and calls a dead worker left in
 * `processing` without a platform id end in `error`.
 */
@Injectable()
export class CallSweeperJob {
  private readonly logger = new Logger(CallSweeperJob.name);

  constructor(
    private readonly calls: CallsRepository,
    private readonly queue: CallDispatchQueue,
    private readonly events: CallEventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ name: JobName.SweepCalls, schedule: { every: SWEEP_EVERY_MS } })
  async sweep(): Promise<{ requeued: number; released: number; abandoned: number }> {
    // A claim or a dispatch older than this without progress belongs to a worker that died (CALL_DISPATCH_STALE_MS).
    const staleAfterSeconds = this.config.callDispatchStaleMs / 1000;
    const released = await this.calls.releaseStale(staleAfterSeconds);
    const due = await this.calls.findDue(GRACE_SECONDS, released, BATCH);
    let requeued = 0;
    for (const id of due) if (await this.queue.ensureEnqueued(id, null)) requeued++;

    const abandoned = await this.calls.findAbandoned(staleAfterSeconds, BATCH);
    for (const id of abandoned) {
      await this.events.finish(id, null, PIPELINE_ERROR_REPORT);
    }
    if (requeued || released.length || abandoned.length) {
      this.logger.warn({ requeued, released: released.length, abandoned: abandoned.length }, 'Call sweep repaired');
    }
    return { requeued, released: released.length, abandoned: abandoned.length };
  }
}
