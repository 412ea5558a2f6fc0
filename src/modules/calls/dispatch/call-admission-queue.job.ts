import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { CallAdmission } from '../../limits/call-admission';
import { POOLED_PLATFORMS } from '../../limits/pooled-platform';
import { CallsRepository } from '../calls.repository';
import { CallDispatchQueue } from './call-dispatch-queue';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.AdmitQueuedCalls]: { organizationId: string };
  }
}

/** The window whose freed slots of one organization share a wake-up (the longest a waiting call waits for it). */
const WAKE_UP_WINDOW_MS = 100;

/**
 * Calls over their organization's concurrency cap go back to `new` (or `scheduled`) at dispatch. When a live
 * call ends, its organization's oldest waiting calls, as many as there are free slots, are enqueued again; the
 * dispatch itself re-checks admission under the lock, so an over-eager wake-up only costs a claim. The sweeper
 * re-enqueues any waiting call a lost wake-up leaves behind.
 */
@Injectable()
export class CallAdmissionQueueJob {
  constructor(
    private readonly calls: CallsRepository,
    private readonly jobs: JobQueue,
    private readonly admission: CallAdmission,
    private readonly dispatchQueue: CallDispatchQueue,
  ) {}

  /**
   * A slot of the organization freed (a live call ended). The slots an organization frees within one window share
   * one wake-up, which runs once the window has closed, so after every call that freed one had committed: a
   * campaign frees a slot per call (over a hundred a second), and a wake-up each was a queue job and three
   * statements per call, nearly always for an organization with no call waiting.
   */
  async slotFreed(organizationId: string): Promise<void> {
    const now = Date.now();
    const closes = (Math.floor(now / WAKE_UP_WINDOW_MS) + 1) * WAKE_UP_WINDOW_MS;
    await this.jobs.add(
      JobName.AdmitQueuedCalls,
      { organizationId },
      { jobId: `admit-${organizationId}-${closes}`, delay: closes - now, removeOnComplete: true, removeOnFail: 100 },
    );
  }

  @OnJob({ name: JobName.AdmitQueuedCalls })
  async admitQueued({ organizationId }: { organizationId: string }): Promise<number> {
    const free = await this.admission.freeOutboundSlots(organizationId);
    const waiting = free > 0 ? await this.calls.findAdmissible(organizationId, free) : [];
    // With a voice platform's shared pool, the freed slot may be another organization's turn: the oldest
    // waiting call of each organization that waits is woken too, as many as each pool has room for.
    const others: string[] = [];
    for (const platform of POOLED_PLATFORMS) {
      const poolFree = await this.admission.freePoolSlots(platform);
      if (poolFree > 0) others.push(...(await this.calls.findAdmissiblePooledAcrossOrganizations(poolFree, platform)));
    }
    const woken = [...new Set([...waiting, ...others])];
    for (const id of woken) await this.dispatchQueue.ensureEnqueued(id, null);
    return woken.length;
  }
}
