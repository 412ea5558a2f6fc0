import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import type { NoJobData } from '../../infra/queue/job-data';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.RenewSubscriptions]: NoJobData;
  }
}

/** The scheduled tick of period boundaries, run once cluster-wide every minute. */
@Injectable()
export class SubscriptionLifecycleJob {
  constructor(private readonly lifecycle: SubscriptionLifecycleService) {}

  @OnJob({ name: JobName.RenewSubscriptions, schedule: { every: 60_000 } })
  run(): Promise<{ renewed: number; trialsExpired: number }> {
    return this.lifecycle.runDue();
  }
}
