import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { WebhookDeliveryLeaseRepository } from './delivery/webhook-delivery-lease.repository';
import { WebhookDeliveryLogRepository } from './delivery/webhook-delivery-log.repository';
import type { NoJobData } from '../../infra/queue/job-data';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.PruneWebhookDeliveries]: NoJobData;
  }
}

/** Delivery attempts are kept two weeks: long enough to explain a disabled endpoint. */
export const DELIVERY_RETENTION_DAYS = 14;
const BATCH = 10_000;

@Injectable()
export class WebhookDeliveriesPrunerJob {
  constructor(
    private readonly log: WebhookDeliveryLogRepository,
    private readonly leases: WebhookDeliveryLeaseRepository,
  ) {}

  /** Hourly, cluster-wide; deletes in batches so a large backlog never holds one long transaction. */
  @OnJob({ name: JobName.PruneWebhookDeliveries, schedule: { every: 3600_000 } })
  async prune(): Promise<number> {
    // Slot leases of crashed workers and waits of jobs lost with the queue store (a day is far past any use).
    await this.leases.prune(24);
    let total = 0;
    for (;;) {
      const deleted = await this.log.pruneOlderThan(DELIVERY_RETENTION_DAYS, BATCH);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
