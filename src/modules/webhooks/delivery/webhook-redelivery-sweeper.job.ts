import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { WebhookDeliveryJobData, deliveryJobOptions } from './webhook-delivery-job-data';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import type { NoJobData } from '../../../infra/queue/job-data';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SweepWebhookDeliveries]: NoJobData;
  }
}

const BATCH = 500;

/**
 * PostgreSQL knows which deliveries should exist (relayed events x subscribed endpoints) and which attempts ran
 * (the delivery log); the queue only holds the next attempt. When the queue store loses that job (Redis restarted
 * empty), this sweep re-creates it: an event with no attempt, or a failed attempt whose retry is overdue by more
 * than the grace period, gets its next attempt enqueued. Job ids are the deterministic attempt ids, so a job that
 * still exists (waiting, delayed or running) is never added twice, and a finished attempt (its job gone) is in the
 * log, which the attempt checks before sending.
 */
@Injectable()
export class WebhookRedeliverySweeperJob {
  constructor(
    private readonly log: WebhookDeliveryLogRepository,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ name: JobName.SweepWebhookDeliveries, schedule: { every: 15_000 } })
  async sweep(): Promise<number> {
    const delays = this.config.webhookRetryDelaysMs;
    const graceSecs = this.config.webhookRedeliveryGraceMs / 1000;
    // Deliveries settle within the retry schedule; look back that long plus an hour of outage, no further.
    const lookbackSecs = delays.reduce((a, b) => a + b, 0) / 1000 + 3600;
    const overdue = await this.log.overdue(lookbackSecs, graceSecs, delays, BATCH);
    for (const row of overdue) {
      const job: WebhookDeliveryJobData = {
        eventId: row.event_id,
        organizationId: row.organization_id,
        endpointId: row.endpoint_id,
        type: row.type,
        attempt: (row.last_attempt ?? 0) + 1,
      };
      await this.jobs.add(JobName.DeliverWebhook, job, deliveryJobOptions(job));
    }
    return overdue.length;
  }
}
