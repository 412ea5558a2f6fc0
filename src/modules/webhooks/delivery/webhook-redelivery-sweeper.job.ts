import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { DomainEventType } from '../../outbox/domain-event';
import { WebhookDeliveryJobData, deliveryJobOptions } from './webhook-delivery-job-data';
import type { NoJobData } from '../../../infra/queue/job-data';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SweepWebhookDeliveries]: NoJobData;
  }
}

interface OverdueDelivery {
  event_id: string;
  organization_id: string;
  type: DomainEventType;
  endpoint_id: string;
  last_attempt: number | null;
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
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ name: JobName.SweepWebhookDeliveries, schedule: { every: 15_000 } })
  async sweep(): Promise<number> {
    const delays = this.config.webhookRetryDelaysMs;
    const graceSecs = this.config.webhookRedeliveryGraceMs / 1000;
    // Deliveries settle within the retry schedule; look back that long plus an hour of outage, no further.
    const lookbackSecs = delays.reduce((a, b) => a + b, 0) / 1000 + 3600;
    const overdue: OverdueDelivery[] = await this.dataSource.query(
      `SELECT e.event_id, e.organization_id, e.type, w.id AS endpoint_id, d.last_attempt
         FROM outbox_events e
         JOIN webhook_endpoints w
           ON w.organization_id = e.organization_id AND w.livemode = e.livemode AND w.is_active AND e.type = ANY(w.events)
          AND w.created_at <= e.occurred_at
         LEFT JOIN LATERAL (
           SELECT max(attempt) AS last_attempt, max(created_at) AS last_at, bool_or(success) AS succeeded
             FROM webhook_deliveries x WHERE x.event_id = e.event_id AND x.endpoint_id = w.id
         ) d ON true
        WHERE e.relayed_at > now() - make_interval(secs => $1)
          AND e.relayed_at < now() - make_interval(secs => $2)
          AND NOT coalesce(d.succeeded, false)
          AND (d.last_attempt IS NULL
               OR (d.last_attempt <= cardinality($3::int[])
                   AND d.last_at < now() - make_interval(secs => $2 + ($3::int[])[d.last_attempt] / 1000.0)))
        ORDER BY e.id
        LIMIT $4`,
      [lookbackSecs, graceSecs, delays, BATCH],
    );
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
