import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';

/** The scheduled tick of period boundaries, run once cluster-wide every minute. */
@Injectable()
export class SubscriptionLifecycleJob {
  constructor(private readonly lifecycle: SubscriptionLifecycleService) {}

  @OnJob({ name: JobName.RenewSubscriptions, schedule: { every: 60_000 } })
  run(): Promise<{ renewed: number; trialsExpired: number }> {
    return this.lifecycle.runDue();
  }
}
