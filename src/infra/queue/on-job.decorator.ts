import { SetMetadata } from '@nestjs/common';
import { JobName } from './queue-names';

export const ON_JOB_KEY = 'vc:on-job';

export interface JobSchedule {
  /** Repeat every N milliseconds. */
  every?: number;
  /** Cron pattern (UTC). */
  pattern?: string;
}

export interface OnJobOptions {
  name: JobName;
  /** Registered by the scheduler role as a BullMQ job scheduler: one tick cluster-wide, never one per process. */
  schedule?: JobSchedule;
}

/** Marks a service method as the handler of a job; it receives the job's data and the BullMQ job. */
export const OnJob = (options: OnJobOptions) => SetMetadata(ON_JOB_KEY, options);
