import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Job, JobsOptions, Queue } from 'bullmq';
import type { JobOf } from './job-data';
import { JOB_QUEUE, JobName, QueueName } from './queue-names';

/**
 * Enqueue a job by name; the queue comes from the job registry, so callers never pick the wrong one, and the data
 * is the job's own type (`JobOf`).
 */
@Injectable()
export class JobQueue {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {}

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      this.queues.set(name, queue);
    }
    return queue;
  }

  add<N extends JobName>(job: N, data: JobOf<N>, options?: JobsOptions) {
    return this.queue(JOB_QUEUE[job]).add(job, data, options);
  }

  /**
   * Runs a delayed job now. `not-delayed`: the job is waiting or running (or on its way to the delayed set: a
   * deferred job whose move has not landed yet); `gone`: no such job, or it has finished.
   */
  async promote(job: JobName, jobId: string): Promise<'promoted' | 'not-delayed' | 'gone'> {
    const found = await this.queue(JOB_QUEUE[job]).getJob(jobId);
    if (!found) return 'gone';
    try {
      await found.promote();
      return 'promoted';
    } catch {
      const state = await found.getState();
      return state === 'completed' || state === 'failed' || state === 'unknown' ? 'gone' : 'not-delayed';
    }
  }

  /** The job of this name and id while the queue holds it (waiting, delayed, running, or kept after failing). */
  find<N extends JobName>(job: N, jobId: string) {
    return this.queue(JOB_QUEUE[job]).getJob(jobId) as Promise<Job<JobOf<N>> | undefined>;
  }

  addBulk<N extends JobName>(job: N, items: ReadonlyArray<{ data: JobOf<N>; opts?: JobsOptions }>) {
    return this.queue(JOB_QUEUE[job]).addBulk(items.map((i) => ({ name: job, data: i.data, opts: i.opts })));
  }
}
