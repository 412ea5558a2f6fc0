import { Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { firstInLine } from '../../../infra/database/first-in-line';
import { DeferJob } from '../../../infra/queue/defer-job';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import {
  INFRASTRUCTURE_RETRY_DELAY_MS,
  WebhookDeliveryJobData,
  WebhookEventDeliveryJobData,
  deliveryJobOptions,
  firstAttempts,
} from './webhook-delivery-job-data';
import { WebhookDeliveryService } from './webhook-delivery.service';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.DeliverWebhookEvent]: WebhookEventDeliveryJobData;
  }
}

/**
 * The first attempts of one event, side by side in one job (WebhookDeliveryService.deliver each, so each has its
 * organization's share, its endpoint's slot, its retries and its log line as a job of its own would). An attempt
 * that cannot run now goes on as a job of its own, under the id it would have had from the start: deferred (a
 * share or a slot in use) it waits in the queue as a first attempt's job always did; failed on our side it runs
 * again after the first infrastructure retry's delay. So the event's job ends when every attempt it ran ended,
 * and one slow endpoint holds only its own attempt (and this job's place in the queue's concurrency, as its own
 * job would). A rerun of this job (a worker lost while it ran) skips the attempts already in the delivery log.
 */
@Injectable()
export class WebhookEventDeliveryJob {
  private readonly logger = new Logger(WebhookEventDeliveryJob.name);

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly jobs: JobQueue,
  ) {}

  @OnJob({ name: JobName.DeliverWebhookEvent })
  async deliver(data: WebhookEventDeliveryJobData, job: Pick<Job, 'timestamp' | 'opts'>): Promise<void> {
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    // attemptsMade 0: each attempt is a first run of its own, so one already logged is not sent again.
    const queued = { attemptsMade: 0, timestamp: job.timestamp, opts: job.opts };
    await Promise.all(
      firstAttempts(data).map((attempt) =>
        firstInLine(() => this.delivery.deliver(attempt, queued)).catch((error: unknown) =>
          this.continueAlone({ ...attempt, dueAt }, error),
        ),
      ),
    );
  }

  /**
   * The attempt's own job. Deferred, it is waiting at once, as a first attempt always was: it runs like any
   * queued attempt (deferred again without I/O while the share is full, parked in the delayed set by the queue, and
   * woken there). Not parked here: a wake-up that came before its job existed would find no job and pass over it,
   * and the attempt would wait out the whole parking delay (measured: the mixed workload's p99 went from 1.1 to
   * 5.4 s). Failed on our side, it is due after the first infrastructure retry's delay.
   */
  private async continueAlone(attempt: WebhookDeliveryJobData, error: unknown): Promise<void> {
    const deferred = error instanceof DeferJob;
    if (!deferred) {
      this.logger.warn(
        { eventId: attempt.eventId, endpointId: attempt.endpointId, err: (error as Error).message },
        'Webhook attempt failed on our side; it runs again as its own job',
      );
    }
    const delay = deferred ? undefined : INFRASTRUCTURE_RETRY_DELAY_MS;
    await this.jobs.add(JobName.DeliverWebhook, attempt, deliveryJobOptions(attempt, delay));
  }
}
