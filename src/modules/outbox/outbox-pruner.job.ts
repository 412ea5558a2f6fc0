import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
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
  constructor(private readonly dataSource: DataSource) {}

  @OnJob({ name: JobName.PruneOutbox, schedule: { every: 3600_000 } })
  async prune(): Promise<number> {
    const result = await this.dataSource.query(
      `DELETE FROM outbox_events WHERE relayed_at < now() - make_interval(days => $1)`,
      [RETENTION_DAYS],
    );
    return Number(result?.[1] ?? 0);
  }
}
