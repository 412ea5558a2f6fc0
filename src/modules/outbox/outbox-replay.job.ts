import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { JobQueue } from '../../infra/queue/job-queue';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { domainEventJob } from './domain-event-job';
import { OutboxEventsRepository } from './outbox-events.repository';
import type { NoJobData } from '../../infra/queue/job-data';
import { inTransaction } from '../../infra/database/tx';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.ReplayDomainEvents]: NoJobData;
  }
}

const BATCH = 500;
/**
 * An event still unprocessed a day after it occurred is failing in a listener (its failed job stays in the
 * queue for inspection), not lost; replaying it further would only add no-op jobs.
 */
const LOOKBACK_SECS = 24 * 3600;

/**
 * PostgreSQL knows which events were relayed and which the fan-out finished (`processed_at`); the queue only
 * holds the job in between. When the queue store loses that job (Redis restarted empty or wiped), this sweep
 * enqueues the event again, like the relay: same job id (the event id), so an event whose job still exists
 * (waiting behind a backlog, retrying) is not added twice, and every listener is idempotent per event (webhook
 * deliveries have fixed job ids and the delivery log; campaign steps coalesce; follow-ups are keyed by call).
 * Each replayed row's `relayed_at` moves to now, so the next look at it is one grace period later and rows that
 * stay unprocessed rotate behind the others instead of filling every batch.
 */
@Injectable()
export class OutboxReplayJob {
  private readonly logger = new Logger(OutboxReplayJob.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly events: OutboxEventsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ name: JobName.ReplayDomainEvents, schedule: { every: 15_000 } })
  async replay(): Promise<number> {
    const replayed = await inTransaction(this.dataSource, async (tx) => {
      const rows = await this.events.claimUnprocessed(tx, this.config.outboxReplayGraceMs / 1000, LOOKBACK_SECS, BATCH);
      if (!rows.length) return 0;
      await this.jobs.addBulk(JobName.DomainEvent, rows.map(domainEventJob));
      await this.events.markRelayed(
        tx,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
    if (replayed) this.logger.warn(`Re-enqueued ${replayed} relayed events still unprocessed (queue store lost?)`);
    return replayed;
  }
}
