import type { Job } from 'bullmq';
import type { JobName } from './queue-names';

/**
 * The data of each job, by job name: one map, assembled from the modules. Infra imports no module, so each job's
 * data type is declared beside its handler by augmenting this interface:
 *
 *     declare module '../../infra/queue/job-data' {
 *       interface JobDataMap { [JobName.AdvanceCampaign]: { campaignId: string } }
 *     }
 *
 * `JobQueue.add` / `addBulk` take `JobOf<N>` for job N and `@OnJob` accepts only a handler of that data, so a
 * producer and its consumer cannot disagree; `src/infra/queue/job-types.spec.ts` fails to compile while a job name
 * has no entry.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface JobDataMap {}

/** A scheduled tick's data: the job scheduler adds none. */
export type NoJobData = Record<string, never>;

/** The job names whose data is declared. */
export type DeclaredJob = JobName & keyof JobDataMap;

/** The data of job N. */
export type JobOf<N extends JobName> = N extends DeclaredJob ? JobDataMap[N] : never;

/** What `@OnJob({ name: N })` may decorate: a method taking job N's data (and the BullMQ job). */
export type JobHandler<N extends JobName> = (data: JobOf<N>, job: Job<JobOf<N>>) => Promise<unknown>;
