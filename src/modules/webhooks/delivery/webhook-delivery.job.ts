import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { firstInLine } from '../../../infra/database/first-in-line';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { WebhookDeliveryJobData } from './webhook-delivery-job-data';
import { WebhookDeliveryService } from './webhook-delivery.service';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.DeliverWebhook]: WebhookDeliveryJobData;
  }
}

/**
 * The webhook-deliveries queue's consumer: one attempt of one event to one endpoint, by WebhookDeliveryService.
 * Its statements are served before the process's other work waiting for a pool connection (first-in-line.ts).
 */
@Injectable()
export class WebhookDeliveryJob {
  constructor(private readonly delivery: WebhookDeliveryService) {}

  @OnJob({ name: JobName.DeliverWebhook })
  deliver(data: WebhookDeliveryJobData, job: Pick<Job, 'attemptsMade' | 'timestamp' | 'opts'>): Promise<void> {
    return firstInLine(() => this.delivery.deliver(data, job));
  }
}
