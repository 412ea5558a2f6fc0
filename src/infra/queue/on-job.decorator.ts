import { SetMetadata } from '@nestjs/common';
import type { JobHandler } from './job-data';
import { JobName } from './queue-names';

export const ON_JOB_KEY = 'vc:on-job';

export interface JobSchedule {
  /** Repeat every N milliseconds. */
  every?: number;
  /** Cron pattern (UTC). */
  pattern?: string;
}

export interface OnJobOptions<N extends JobName = JobName> {
  name: N;
  /** Registered by the scheduler role as a BullMQ job scheduler: one tick cluster-wide, never one per process. */
  schedule?: JobSchedule;
}

/**
 * Marks a service method as the handler of a job; it receives the job's data (typed by `JobOf<N>`: a method
 * taking other data does not compile) and the BullMQ job.
 */
export const OnJob =
  <N extends JobName>(options: OnJobOptions<N>) =>
  (target: object, key: string | symbol, descriptor: { value?: JobHandler<N> }): void => {
    SetMetadata(ON_JOB_KEY, options)(target, key, descriptor as PropertyDescriptor);
  };
