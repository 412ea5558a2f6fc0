import { Injectable, Logger } from '@nestjs/common';
import { JobQueue } from '../../../infra/queue/job-queue';
import { JobName, QueueName } from '../../../infra/queue/queue-names';

/** Job states in which a call's dispatch job will still run by itself. */
const PENDING_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

/**
 * The call-dispatch queue as the calls module sees it: one job per call, its id the call id, so enqueueing is
 * idempotent and a cancelled call's job can be found and removed.
 */
@Injectable()
export class CallDispatchQueue {
  private readonly logger = new Logger(CallDispatchQueue.name);

  constructor(private readonly jobs: JobQueue) {}

  async enqueue(callId: string, scheduledAt: Date | null): Promise<void> {
    const delay = scheduledAt ? Math.max(0, scheduledAt.getTime() - Date.now()) : 0;
    await this.jobs.add(JobName.DispatchCall, { callId }, { jobId: callId, delay });
  }

  /** Calls due now, in one round trip to the queue store (a campaign step places up to its free slots at once). */
  async enqueueDue(callIds: readonly string[]): Promise<void> {
    if (!callIds.length) return;
    await this.jobs.addBulk(
      JobName.DispatchCall,
      callIds.map((callId) => ({ data: { callId }, opts: { jobId: callId } })),
    );
  }

  /**
   * A further dispatch of a call at `at`, from inside its running dispatch job (whose id a plain enqueue would
   * collide with): its own job id, one per time, so a repeat of the same deferral adds nothing.
   */
  async enqueueRetry(callId: string, at: Date): Promise<void> {
    const delay = Math.max(0, at.getTime() - Date.now());
    await this.jobs.add(
      JobName.DispatchCall,
      { callId },
      { jobId: `${callId}-retry-${at.getTime()}`, delay, removeOnComplete: true, removeOnFail: 100 },
    );
  }

  /**
   * Re-enqueues a due call unless its job is still pending. A finished job with the same id would make a plain
   * add a no-op, so it is removed first.
   */
  async ensureEnqueued(callId: string, scheduledAt: Date | null): Promise<boolean> {
    const queue = this.jobs.queue(QueueName.CallDispatch);
    const job = await queue.getJob(callId);
    if (job) {
      const state = await job.getState();
      if (PENDING_STATES.has(state)) return false;
      await job.remove().catch(() => undefined);
    }
    await this.enqueue(callId, scheduledAt);
    return true;
  }

  /** Best effort: a job already running finds the call cancelled and does nothing. */
  async remove(callId: string): Promise<void> {
    try {
      await this.jobs.queue(QueueName.CallDispatch).remove(callId);
    } catch (error) {
      this.logger.debug({ callId, err: (error as Error).message }, 'Dispatch job not removed');
    }
  }
}
