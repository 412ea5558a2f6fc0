import type { AppConfig } from '../../../infra/config/app-config';
import type { Metrics } from '../../../infra/metrics/metrics';
import { DeferJob } from '../../../infra/queue/defer-job';
import { JobQueue } from '../../../infra/queue/job-queue';
import { fakeOf } from '../../../infra/testing/fake-of';
import { WebhookDeliveryJobData, deliveryJobId } from './webhook-delivery-job-data';
import { ClaimResult, WaitingAttempt, WebhookDeliveryLeaseRepository } from './webhook-delivery-lease.repository';
import type { LoggedAttempt } from './webhook-delivery-log.repository';
import { WebhookDeliverySlots } from './webhook-delivery-slots';

const TIMEOUT_MS = 10_000;
type Promoted = 'promoted' | 'not-delayed' | 'gone';

/**
 * An endpoint's slots as the lease table keeps them (webhook_delivery_claim_batch and the release's statement,
 * pinned by test/webhooks/webhook-delivery-lease.repository.medium-spec.ts): running attempts up to the limit, the
 * rest waiting in line by the time they first asked.
 */
class InMemoryLeases {
  readonly running = new Set<string>();
  readonly waiting: WaitingAttempt[] = [];
  readonly requeued: string[] = [];
  /** The attempts' log lines the releases carried, by log id. */
  readonly logged: string[] = [];
  gone = false;
  private clock = 0;

  repository(): WebhookDeliveryLeaseRepository {
    return fakeOf<WebhookDeliveryLeaseRepository>({
      claimMany: (attempts, limit) => {
        const results = attempts.map(({ jobId: id, endpointId }): ClaimResult => {
          if (this.gone) return 'gone';
          if (this.running.has(id)) return 'running';
          if (this.running.size < limit) {
            this.running.add(id);
            this.leaveLine(id);
            return 'running';
          }
          if (!this.waiting.some((w) => w.jobId === id))
            this.waiting.push({ jobId: id, endpointId, since: new Date(++this.clock) });
          return 'waiting';
        });
        return Promise.resolve(results);
      },
      releaseMany: (attempts, logged = []) => {
        this.logged.push(...logged.map((l) => l.id));
        return Promise.resolve(
          this.release(
            attempts.map((a) => a.jobId),
            attempts.length,
          ),
        );
      },
      next: () => Promise.resolve(this.release([], 1)[0] ?? null),
      requeue: (waiter) => {
        this.requeued.push(waiter.jobId);
        this.waiting.push(waiter);
        this.waiting.sort((a, b) => a.since.getTime() - b.since.getTime());
        return Promise.resolve();
      },
      hasFreeSlot: (_endpointId, limit) => Promise.resolve(this.running.size < limit),
    });
  }

  private release(jobIds: readonly string[], count: number): WaitingAttempt[] {
    for (const id of jobIds) this.running.delete(id);
    return this.waiting.splice(0, count);
  }

  private leaveLine(id: string): void {
    const i = this.waiting.findIndex((w) => w.jobId === id);
    if (i >= 0) this.waiting.splice(i, 1);
  }
}

/** Lets every promise the slots started without awaiting (the wake-ups) run to the end. */
const wakeUpsDone = async () => {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('WebhookDeliverySlots', () => {
  let leases: InMemoryLeases;
  let promotions: string[];
  /** What the queue answers for a job id (promoted by default). */
  let answers: Map<string, Promoted[]>;
  let deferred: number;

  beforeEach(() => {
    leases = new InMemoryLeases();
    promotions = [];
    answers = new Map();
    deferred = 0;
  });

  const slots = (limits = { organization: 1, endpoint: 1 }) =>
    new WebhookDeliverySlots(
      leases.repository(),
      fakeOf<JobQueue>({
        promote: (_name, jobId) => {
          promotions.push(jobId);
          return Promise.resolve(answers.get(jobId)?.shift() ?? 'promoted');
        },
      }),
      fakeOf<AppConfig>({
        webhookOrganizationConcurrency: limits.organization,
        webhookEndpointConcurrency: limits.endpoint,
        webhookTimeoutMs: TIMEOUT_MS,
      }),
      fakeOf<Metrics>({
        webhookDelivery: (outcome) => {
          if (outcome === 'deferred') deferred++;
        },
      }),
    );

  const attempt = (eventId: string, organizationId = 'org-1'): WebhookDeliveryJobData =>
    ({ eventId, organizationId, endpointId: 'endpoint-1', type: 'call.ended', attempt: 1 }) as WebhookDeliveryJobData;
  const idOf = (job: WebhookDeliveryJobData) => deliveryJobId(job.eventId, job.endpointId, job.attempt);

  /** The DeferJob `run` throws (the spec fails when it throws nothing or something else). */
  const deferral = (run: () => unknown): DeferJob => {
    try {
      run();
    } catch (error) {
      if (error instanceof DeferJob) return error;
      throw error;
    }
    throw new Error('expected a DeferJob');
  };

  describe("an organization's share of this worker", () => {
    it('runs an attempt with a free unit, and defers one past the share for about one timeout', () => {
      const s = slots({ organization: 1, endpoint: 5 });
      s.takeOrganization(attempt('e1'), 1);
      const deferredJob = deferral(() => s.takeOrganization(attempt('e2'), 2));
      expect(deferredJob.delayMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(deferredJob.delayMs).toBeLessThanOrEqual(TIMEOUT_MS * 1.1);
      expect(deferred).toBe(1);
      // Another organization has its own share.
      expect(() => s.takeOrganization(attempt('e3', 'org-2'), 3)).not.toThrow();
    });

    it('wakes the longest waiter when a unit is given back, once however often it is given', async () => {
      const s = slots({ organization: 1, endpoint: 5 });
      const release = s.takeOrganization(attempt('e1'), 1);
      deferral(() => s.takeOrganization(attempt('late'), 20));
      deferral(() => s.takeOrganization(attempt('early'), 10));
      release();
      release();
      await wakeUpsDone();
      expect(promotions).toEqual([idOf(attempt('early'))]);
    });

    it('passes over a waiter whose job is gone, and puts back one not parked yet', async () => {
      const s = slots({ organization: 1, endpoint: 5 });
      const release = s.takeOrganization(attempt('e1'), 1);
      deferral(() => s.takeOrganization(attempt('gone'), 10));
      const travelling = deferral(() => s.takeOrganization(attempt('travelling'), 20));
      answers.set(idOf(attempt('gone')), ['gone']);
      answers.set(idOf(attempt('travelling')), ['not-delayed']);
      release();
      await wakeUpsDone();
      expect(promotions).toEqual([idOf(attempt('gone')), idOf(attempt('travelling'))]);
      // Back in line: once parked, its own look finds the unit still free and wakes it.
      promotions = [];
      await travelling.afterParked!();
      expect(promotions).toEqual([idOf(attempt('travelling'))]);
    });
  });

  describe("an endpoint's slots across workers", () => {
    it('runs an attempt with a free slot and gives the slot back once', async () => {
      const s = slots({ organization: 5, endpoint: 1 });
      const release = await s.claimEndpoint(attempt('e1'));
      expect(leases.running).toEqual(new Set([idOf(attempt('e1'))]));
      await release!();
      await release!();
      expect(leases.running.size).toBe(0);
    });

    it("gives the slot back with the attempt's log line, in one release", async () => {
      const s = slots({ organization: 5, endpoint: 1 });
      const release = await s.claimEndpoint(attempt('e1'));
      await release!({ id: 'log-1' } as LoggedAttempt);
      expect(leases.running.size).toBe(0);
      expect(leases.logged).toEqual(['log-1']);
    });

    it('is nothing to claim when the endpoint is gone', async () => {
      leases.gone = true;
      expect(await slots().claimEndpoint(attempt('e1'))).toBeNull();
    });

    it('defers an attempt past the slots, and wakes it when the running one ends', async () => {
      const s = slots({ organization: 5, endpoint: 1 });
      const release = await s.claimEndpoint(attempt('e1'));
      const error = await s.claimEndpoint(attempt('e2')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeferJob);
      expect(deferred).toBe(1);
      await release!();
      await wakeUpsDone();
      expect(promotions).toEqual([idOf(attempt('e2'))]);
    });

    it('once parked, an attempt wakes itself if a slot was freed while it was on its way', async () => {
      const s = slots({ organization: 5, endpoint: 1 });
      const release = await s.claimEndpoint(attempt('e1'));
      const parked = (await s.claimEndpoint(attempt('e2')).catch((e: unknown) => e)) as DeferJob;
      await parked.afterParked!();
      expect(promotions).toEqual([]);
      leases.running.clear();
      await parked.afterParked!();
      expect(promotions).toEqual([idOf(attempt('e2'))]);
      await release!();
    });

    it('puts a woken waiter not parked yet back in its place, and passes over one whose job is gone', async () => {
      const s = slots({ organization: 5, endpoint: 1 });
      const release = await s.claimEndpoint(attempt('e1'));
      for (const id of ['gone', 'travelling']) await s.claimEndpoint(attempt(id)).catch(() => undefined);
      answers.set(idOf(attempt('gone')), ['gone']);
      answers.set(idOf(attempt('travelling')), ['not-delayed']);
      await release!();
      await wakeUpsDone();
      expect(promotions).toEqual([idOf(attempt('gone')), idOf(attempt('travelling'))]);
      expect(leases.requeued).toEqual([idOf(attempt('travelling'))]);
      expect(leases.waiting.map((w) => w.jobId)).toEqual([idOf(attempt('travelling'))]);
    });

    it('tries at most three waiters whose jobs are gone for one release', async () => {
      const s = slots({ organization: 5, endpoint: 1 });
      const release = await s.claimEndpoint(attempt('e1'));
      for (const id of ['w1', 'w2', 'w3', 'w4']) {
        await s.claimEndpoint(attempt(id)).catch(() => undefined);
        answers.set(idOf(attempt(id)), ['gone']);
      }
      await release!();
      await wakeUpsDone();
      expect(promotions).toEqual(['w1', 'w2', 'w3'].map((id) => idOf(attempt(id))));
    });
  });
});
