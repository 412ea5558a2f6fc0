import { Inject, Injectable, Logger } from '@nestjs/common';
import { KeyedBatcher } from '../../../common/concurrency/keyed-batcher';
import { PerKeyLimit, Waiter } from '../../../common/concurrency/per-key-limit';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { Metrics } from '../../../infra/metrics/metrics';
import { DeferJob } from '../../../infra/queue/defer-job';
import { JobQueue } from '../../../infra/queue/job-queue';
import { JobName } from '../../../infra/queue/queue-names';
import { ATTEMPTS_IN_FLIGHT, WebhookDeliveryJobData, deliveryJobId } from './webhook-delivery-job-data';
import type { LoggedAttempt } from './webhook-delivery-log.repository';
import {
  ClaimResult,
  SlotOf,
  WaitingAttempt,
  WebhookDeliveryLeaseRepository,
} from './webhook-delivery-lease.repository';

/** A running lease outlives the attempt's timeout by this much before it counts as abandoned (a crashed worker). */
const LEASE_MARGIN_MS = 15_000;
/** Waiters whose wake-up cannot be delivered (gone, or not parked yet) tried before giving up for this release. */
const WAKE_TRIES = 3;

/** Gives the slot back; `logged`, the attempt's log line, written in the same statement. */
export type ReleaseSlot = (logged?: LoggedAttempt) => Promise<void>;

/** A slot given back, with the log line of the attempt that held it (none when it was not sent). */
interface Released {
  slot: SlotOf;
  logged?: LoggedAttempt;
}

/**
 * Fair shares of delivery capacity. An attempt runs only with both of:
 * - a slot of its organization in this worker process (WEBHOOK_ORGANIZATION_CONCURRENCY of the worker's 50),
 *   so a tenant whose receivers hang holds a bounded part of the worker, and of its sockets to any host;
 * - a slot of its endpoint (WEBHOOK_ENDPOINT_CONCURRENCY), counted in PostgreSQL across all worker processes.
 * An attempt missing either is deferred, never dropped: it goes back to the delayed set under its own job id, and
 * the attempt that frees the slot promotes the longest waiter. The delay (one timeout, by which every attempt
 * running now has ended) only matters when a wake-up was lost or the line was full, so a backlog is looked at
 * once per timeout, not polled.
 */
@Injectable()
export class WebhookDeliverySlots {
  private readonly logger = new Logger(WebhookDeliverySlots.name);
  private readonly organizations: PerKeyLimit;
  /**
   * The claims, and the releases, that come while one call runs go together in the next, whatever their endpoints
   * (one round trip per batch, each endpoint's lock taken once in it): a burst spread over many endpoints has about
   * one attempt per endpoint in flight, so batches per endpoint were a round trip per attempt (BENCHMARKS.md). A
   * release carries its attempt's log line: one statement frees the slots and logs the attempts that held them.
   */
  private readonly claims = new KeyedBatcher<SlotOf, ClaimResult>(
    (_, attempts) =>
      this.leases.claimMany(
        attempts,
        this.config.webhookEndpointConcurrency,
        this.config.webhookTimeoutMs + LEASE_MARGIN_MS,
      ),
    ATTEMPTS_IN_FLIGHT,
  );
  private readonly releases = new KeyedBatcher<Released, void>(
    (_, released) => this.releaseAndWake(released),
    ATTEMPTS_IN_FLIGHT,
  );

  constructor(
    private readonly leases: WebhookDeliveryLeaseRepository,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.organizations = new PerKeyLimit(config.webhookOrganizationConcurrency);
  }

  /**
   * Takes this worker's slot for the attempt's organization (no I/O: decided before the attempt reads anything),
   * or throws DeferJob. `since`: when the attempt became due, its place in the organization's line. The returned
   * function gives the slot back.
   */
  takeOrganization(job: WebhookDeliveryJobData, since: number): () => void {
    const org = job.organizationId;
    const jobId = deliveryJobId(job.eventId, job.endpointId, job.attempt);
    if (!this.organizations.tryTake(org, jobId)) {
      this.organizations.park(org, { id: jobId, rank: since });
      this.metrics.webhookDelivery('deferred');
      // Once parked, a unit freed meanwhile (its wake-up found nobody parked) goes to the longest waiter.
      throw new DeferJob(this.parkedDelay(), 'organization share of this worker in use', () =>
        this.wakeOrganization(org, this.organizations.wake(org)),
      );
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.wakeOrganization(org, this.organizations.give(org)).catch((err: unknown) => {
        // The waiter still wakes on its own delay.
        this.logger.debug({ org, err: (err as Error).message }, 'Could not wake a deferred webhook attempt');
      });
    };
  }

  /**
   * Takes one of the endpoint's slots, across all workers, or throws DeferJob. Null when the endpoint is gone.
   * The returned function gives the slot back (logging the attempt, when given its log line) and wakes the
   * endpoint's longest waiter.
   */
  async claimEndpoint(job: WebhookDeliveryJobData): Promise<ReleaseSlot | null> {
    const slot = { jobId: deliveryJobId(job.eventId, job.endpointId, job.attempt), endpointId: job.endpointId };
    const claim = await this.claims.submit('', slot);
    if (claim === 'gone') return null;
    if (claim === 'waiting') {
      this.metrics.webhookDelivery('deferred');
      const limit = this.config.webhookEndpointConcurrency;
      throw new DeferJob(
        this.parkedDelay(),
        'endpoint slots in use',
        this.lookAgain(slot.jobId, () => this.leases.hasFreeSlot(job.endpointId, limit)),
      );
    }
    let released = false;
    return async (logged) => {
      if (released) return;
      released = true;
      await this.releases.submit('', { slot, logged });
    };
  }

  /**
   * Frees the slots of `released`, logs their attempts, and wakes as many of each endpoint's longest waiters. The
   * slots are free once their rows are gone: the wake-ups (queue round trips) are not waited for, so they hold
   * neither the attempts nor their organizations' units.
   */
  private async releaseAndWake(released: Released[]): Promise<void[]> {
    const next = await this.leases.releaseMany(
      released.map((r) => r.slot),
      released.flatMap((r) => (r.logged ? [r.logged] : [])),
    );
    for (const waiter of next) {
      this.wakeEndpoint(waiter).catch((err: unknown) => {
        // The waiter still wakes on its own delay.
        this.logger.debug(
          { jobId: waiter.jobId, err: (err as Error).message },
          'Could not wake a deferred webhook attempt',
        );
      });
    }
    return released.map(() => undefined);
  }

  /**
   * Promotes the endpoint's woken waiter. One not in the delayed set yet (still on its way there) goes back to its
   * place, and once parked looks for the slot freed here; one whose job is gone makes way for the next.
   */
  private async wakeEndpoint(waiter: WaitingAttempt): Promise<void> {
    let next: WaitingAttempt | null = waiter;
    for (let i = 0; next && i < WAKE_TRIES; i++) {
      const woken = await this.jobs.promote(JobName.DeliverWebhook, next.jobId);
      if (woken === 'promoted') return;
      if (woken === 'not-delayed') return this.leases.requeue(next);
      next = await this.leases.next(waiter.endpointId);
    }
  }

  /**
   * Promotes a woken waiter. One not in the delayed set yet (still on its way there) goes back to its place, so
   * its own look-again once parked finds it; one whose job is gone makes way for the next.
   */
  private async wakeOrganization(org: string, waiter: Waiter | undefined): Promise<void> {
    for (let next = waiter; next; next = this.organizations.wake(org)) {
      const woken = await this.jobs.promote(JobName.DeliverWebhook, next.id);
      if (woken === 'not-delayed') this.organizations.park(org, next);
      if (woken !== 'gone') return;
    }
  }

  /**
   * A slot freed while the attempt was being parked woke nobody (promote found no delayed job yet), so once parked
   * the attempt looks again and wakes itself if a slot is free.
   */
  private lookAgain(jobId: string, free: () => Promise<boolean>): () => Promise<void> {
    return async () => {
      if (await free()) await this.jobs.promote(JobName.DeliverWebhook, jobId);
    };
  }

  /** One timeout (every attempt running now has ended by then), spread by up to 10 % so waiters do not wake together. */
  private parkedDelay(): number {
    return Math.round(this.config.webhookTimeoutMs * (1 + 0.1 * Math.random()));
  }
}
