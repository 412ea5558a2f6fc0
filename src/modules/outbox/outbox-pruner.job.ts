import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { OutboxEventsRepository } from './outbox-events.repository';
import type { NoJobData } from '../../infra/queue/job-data';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.PruneOutbox]: NoJobData;
  }
}

/** Exported: a webhook delivery can be re-sent only while its event is kept. */
export const RETENTION_DAYS = 7;

/** Relayed events are kept a week for inspection, then deleted (cluster-wide hourly tick). */
@Injectable()
export class OutboxPrunerJob {
  constructor(private readonly events: OutboxEventsRepository) {}

  @OnJob({ name: JobName.PruneOutbox, schedule: { every: 3600_000 } })
  prune(): Promise<number> {
    return this.events.pruneRelayedBefore(RETENTION_DAYS);
  }
}
