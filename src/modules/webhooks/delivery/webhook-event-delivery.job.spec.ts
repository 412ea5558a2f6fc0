import { DeferJob } from '../../../infra/queue/defer-job';
import { JobQueue } from '../../../infra/queue/job-queue';
import { JobName } from '../../../infra/queue/queue-names';
import { fakeOf } from '../../../infra/testing/fake-of';
import {
  INFRASTRUCTURE_RETRY_DELAY_MS,
  WebhookDeliveryJobData,
  deliveryJobId,
  eventDeliveryJobId,
} from './webhook-delivery-job-data';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEventDeliveryJob } from './webhook-event-delivery.job';

const EVENT = { eventId: 'e-1', organizationId: 'org-1', type: 'contact.created' as const };
const QUEUED = { timestamp: 1_000, opts: { delay: 500 } };

/** The event's job over fake attempts: `outcome` decides each endpoint's attempt; the jobs it adds are kept. */
function eventJob(outcome: (attempt: WebhookDeliveryJobData) => Promise<void>) {
  const ran: Array<{ attempt: WebhookDeliveryJobData; attemptsMade: number; timestamp: number }> = [];
  const added: Array<{ data: WebhookDeliveryJobData; jobId?: string; delay?: number }> = [];
  const delivery = fakeOf<WebhookDeliveryService>({
    deliver: (attempt, queued) => {
      ran.push({ attempt, attemptsMade: queued?.attemptsMade ?? -1, timestamp: queued?.timestamp ?? -1 });
      return outcome(attempt);
    },
  });
  const jobs = fakeOf<JobQueue>({
    add: ((name: JobName, data: WebhookDeliveryJobData, opts?: { jobId?: string; delay?: number }) => {
      expect(name).toBe(JobName.DeliverWebhook);
      added.push({ data, jobId: opts?.jobId, ...(opts?.delay ? { delay: opts.delay } : {}) });
      return Promise.resolve({});
    }) as JobQueue['add'],
  });
  return { job: new WebhookEventDeliveryJob(delivery, jobs), ran, added };
}

describe('WebhookEventDeliveryJob', () => {
  it('runs the first attempt to every endpoint as a first run, and adds no job when they all ran', async () => {
    const { job, ran, added } = eventJob(() => Promise.resolve());
    await job.deliver({ ...EVENT, endpointIds: ['a', 'b', 'c'] }, QUEUED);
    expect(ran.map((r) => [r.attempt.endpointId, r.attempt.attempt, r.attemptsMade, r.timestamp])).toEqual([
      ['a', 1, 0, 1_000],
      ['b', 1, 0, 1_000],
      ['c', 1, 0, 1_000],
    ]);
    expect(added).toEqual([]);
  });

  it('gives a deferred attempt its own job under its own id, waiting at once, with its place in line', async () => {
    let lookedAgain = false;
    const { job, added } = eventJob((attempt) =>
      attempt.endpointId === 'b'
        ? Promise.reject(
            new DeferJob(12_000, 'endpoint slots in use', () => {
              lookedAgain = true;
              return Promise.resolve();
            }),
          )
        : Promise.resolve(),
    );
    await job.deliver({ ...EVENT, endpointIds: ['a', 'b', 'c'] }, QUEUED);
    expect(added).toEqual([
      { data: { ...EVENT, endpointId: 'b', attempt: 1, dueAt: 1_500 }, jobId: deliveryJobId('e-1', 'b', 1) },
    ]);
    // Not parked by this job: its own run defers it (or not) as any queued attempt, and the queue parks it.
    expect(lookedAgain).toBe(false);
  });

  it('gives an attempt that failed on our side a job of its own after the first retry delay; the others still run', async () => {
    const { job, ran, added } = eventJob((attempt) =>
      attempt.endpointId === 'a' ? Promise.reject(new Error('connection refused')) : Promise.resolve(),
    );
    await job.deliver({ ...EVENT, endpointIds: ['a', 'b'] }, QUEUED);
    expect(ran.map((r) => r.attempt.endpointId)).toEqual(['a', 'b']);
    expect(added).toEqual([
      {
        data: { ...EVENT, endpointId: 'a', attempt: 1, dueAt: 1_500 },
        jobId: deliveryJobId('e-1', 'a', 1),
        delay: INFRASTRUCTURE_RETRY_DELAY_MS,
      },
    ]);
  });

  it("fails the event's job when an attempt's own job cannot be added (the queue retries it)", async () => {
    const delivery = fakeOf<WebhookDeliveryService>({ deliver: () => Promise.reject(new Error('db down')) });
    const jobs = fakeOf<JobQueue>({ add: (() => Promise.reject(new Error('redis down'))) as JobQueue['add'] });
    await expect(
      new WebhookEventDeliveryJob(delivery, jobs).deliver({ ...EVENT, endpointIds: ['a'] }, QUEUED),
    ).rejects.toThrow('redis down');
  });

  it("an event's job id differs from every attempt's", () => {
    expect(eventDeliveryJobId('e-1')).not.toBe(deliveryJobId('e-1', 'a', 1));
    expect(eventDeliveryJobId('e-1')).not.toContain(':');
  });
});
