import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { IdempotencyService } from './idempotency.service';
import type { NoJobData } from '../../infra/queue/job-data';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.PruneIdempotencyKeys]: NoJobData;
  }
}

/** Deletes expired idempotency keys (cluster-wide hourly tick). */
@Injectable()
export class IdempotencyKeysPrunerJob {
  constructor(private readonly idempotency: IdempotencyService) {}

  @OnJob({ name: JobName.PruneIdempotencyKeys, schedule: { every: 3600_000 } })
  prune(): Promise<void> {
    return this.idempotency.prune();
  }
}
