import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { PerKeyLimit } from '../../../common/concurrency/per-key-limit';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { Metrics } from '../../../infra/metrics/metrics.service';
import { DeferJob } from '../../../infra/queue/defer-job';
import { JobQueue } from '../../../infra/queue/job-queue.service';
import { JobName } from '../../../infra/queue/queue-names';
import { WebhookDeliveryJob, deliveryJobId } from './webhook-delivery.job';
import { WebhookDeliveryLeaseRepository } from './webhook-delivery-lease.repository';

/** A running lease outlives the attempt's timeout by this much before it counts as abandoned (a crashed worker). */
const LEASE_MARGIN_MS = 15_000;
/** Waiters whose job is gone passed over before giving up for this release (their slot then frees by expiry). */
const WAKE_TRIES = 3;

export type ReleaseSlot = () => Promise<void>;

/** What the queue says about this run of an attempt: the part of the BullMQ job the slots look at. */
export type QueuedRun = Pick<Job, 'attemptsMade' | 'attemptsStarted' | 'timestamp' | 'opts'>;

/** Where an attempt stands in line: `returning` once it has been deferred; `since`: when it became due. */
export interface Turn {
  returning: boolean;
  since: number;
}

export function turnOf(queued: QueuedRun | undefined): Turn {
  if (!queued) return { returning: false, since: Date.now() };
  // Every run starts an attempt of the job; only failed runs count as made: the others were deferrals.
  return {
    returning: queued.attemptsStarted > queued.attemptsMade + 1,
    since: queued.timestamp + (queued.opts?.delay ?? 0),
  };
}

/**
 * Fair shares of delivery capacity (issue 16). An attempt runs only with both of:
 * - a slot of its organization in this worker process (WEBHOOK_ORGANIZATION_CONCURRENCY of the worker's 50),
 *   so a tenant whose receivers hang holds a bounded part of the worker, and of its sockets to any host;
 * - a slot of its endpoint (WEBHOOK_ENDPOINT_CONCURRENCY), counted in PostgreSQL across all worker processes.
 * An attempt missing either is deferred, never dropped: it goes back to the delayed set under its own job id and
 * waits its turn (issue 21). The attempt that frees a slot hands it to the longest waiter and promotes it; the
 * slot is kept for that waiter, so newcomers queue behind it instead of taking the slot and sending the waiter
 * back to wait again. The delay (one timeout, by which every attempt running now has ended) only matters when a
 * wake-up was lost, so a backlog is looked at once per timeout, not polled.
 */
@Injectable()
export class WebhookDeliverySlots {
  private readonly logger = new Logger(WebhookDeliverySlots.name);
  private readonly organizations: PerKeyLimit;

  constructor(
    private readonly leases: WebhookDeliveryLeaseRepository,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.organizations = new PerKeyLimit(config.webhookOrganizationConcurrency, config.webhookTimeoutMs);
  }

  /**
   * Takes this worker's slot for the attempt's organization (no I/O: decided before the attempt reads anything),
   * or throws DeferJob. The returned function gives it back.
   */
  takeOrganization(job: WebhookDeliveryJob, turn: Turn): () => void {
    const jobId = deliveryJobId(job.eventId, job.endpointId, job.attempt);
    const org = job.organizationId;
    // Work that entered the queue after a wake-up is fetched after the woken attempt: one not back by now was
    // fetched by another process, and its slot here is no longer kept for it.
    if (!turn.returning) this.organizations.lapse(turn.since);
    if (!this.organizations.tryTake(org, jobId, turn.returning)) {
      this.organizations.park(org, jobId, turn.since);
      this.metrics.webhookDelivery('deferred');
      // Once parked: a wake-up sent while it was on its way promoted nothing; and a slot may be free with nobody
      // woken for it (its waiter came to another process).
      throw new DeferJob(this.parkedDelay(), 'organization share of this worker in use', async () => {
        const self = this.organizations.isWoken(jobId) ? [jobId] : [];
        await this.wakeOrganization(org, [...self, ...this.organizations.wake(org)]);
      });
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.wakeOrganization(org, this.organizations.give(org)).catch((err: unknown) => {
        // The waiters still wake on their own delay.
        this.logger.debug({ err: (err as Error).message }, 'Could not wake a deferred webhook attempt');
      });
    };
  }

  /**
   * Takes one of the endpoint's slots, across all workers, or throws DeferJob. Null when the endpoint is gone.
   * A slot handed to this attempt while it waited is its own already. The returned function gives the slot to
   * the endpoint's longest waiter.
   */
  async claimEndpoint(job: WebhookDeliveryJob): Promise<ReleaseSlot | null> {
    const jobId = deliveryJobId(job.eventId, job.endpointId, job.attempt);
    const claim = await this.leases.claim(
      jobId,
      job.endpointId,
      this.config.webhookEndpointConcurrency,
      this.leaseMs(),
    );
    if (claim === 'gone') return null;
    if (claim === 'waiting') {
      this.metrics.webhookDelivery('deferred');
      const limit = this.config.webhookEndpointConcurrency;
      throw new DeferJob(this.parkedDelay(), 'endpoint slots in use', async () => {
        // A slot handed over (or freed) while the attempt was being parked promoted nothing.
        if (await this.leases.mayRun(jobId, job.endpointId, limit)) await this.promote(jobId);
      });
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await this.leaveEndpoint(job);
    };
  }

  /**
   * Gives up the attempt's place at its endpoint, slot or wait, to the longest waiter (an attempt cancelled after
   * being deferred may hold a slot handed to it).
   */
  async leaveEndpoint(job: WebhookDeliveryJob): Promise<void> {
    let leaving = deliveryJobId(job.eventId, job.endpointId, job.attempt);
    for (let i = 0; i < WAKE_TRIES; i++) {
      const next = await this.leases.release(leaving, job.endpointId, this.leaseMs());
      // A waiter not in the delayed set is running or on its way there, and finds its slot either way.
      if (!next || (await this.promote(next)) !== 'gone') return;
      leaving = next;
    }
  }

  /** Promotes the woken waiters; the unit kept for one whose job is gone goes to the next in line. */
  private async wakeOrganization(org: string, woken: string[]): Promise<void> {
    for (let jobId = woken.shift(); jobId !== undefined; jobId = woken.shift()) {
      if ((await this.promote(jobId)) !== 'gone') continue;
      this.organizations.forget(jobId);
      woken.push(...this.organizations.wake(org));
    }
  }

  private promote(jobId: string) {
    return this.jobs.promote(JobName.DeliverWebhook, jobId);
  }

  private leaseMs(): number {
    return this.config.webhookTimeoutMs + LEASE_MARGIN_MS;
  }

  /** One timeout (every attempt running now has ended by then), spread by up to 10 % so waiters do not wake together. */
  private parkedDelay(): number {
    return Math.round(this.config.webhookTimeoutMs * (1 + 0.1 * Math.random()));
  }
}
