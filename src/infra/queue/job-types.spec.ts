import type { Job } from 'bullmq';
import type { DeclaredJob, JobOf } from './job-data';
import type { JobQueue } from './job-queue';
import { OnJob } from './on-job.decorator';
import { JobName } from './queue-names';

/**
 * Type-level tests: `npm run typecheck` compiles this file with every module's `JobDataMap` entries, so each
 * `@ts-expect-error` below must meet an error (an unused one is itself an error) and each `expectTrue` must hold.
 * The runtime assertions only keep the checked code reachable.
 */
function expectTrue<T extends true>(): T | undefined {
  return undefined;
}

/** Producers: job N's data and nothing else. */
function producers(jobs: JobQueue) {
  void jobs.add(JobName.DispatchCall, { callId: 'c' });
  // @ts-expect-error the dispatcher's data is { callId }
  void jobs.add(JobName.DispatchCall, { campaignId: 'c' });
  // @ts-expect-error a tick carries no data
  void jobs.add(JobName.CampaignTick, { campaignId: 'c' });
  void jobs.addBulk(JobName.AdvanceCampaign, [{ data: { campaignId: 'c' } }]);
  // @ts-expect-error each item is the job's data
  void jobs.addBulk(JobName.AdvanceCampaign, [{ data: { callId: 'c' } }]);
}

/** Consumers: `@OnJob` accepts a handler of the job's data only. */
class Handlers {
  @OnJob({ name: JobName.AdvanceCampaign })
  async right({ campaignId }: { campaignId: string }, job: Job): Promise<string> {
    return `${campaignId}${job.id}`;
  }

  // @ts-expect-error the handler of AdvanceCampaign must take { campaignId }
  @OnJob({ name: JobName.AdvanceCampaign })
  async wrong({ callId }: { callId: string }): Promise<string> {
    return callId;
  }
}

describe('job types', () => {
  it('every job name has its data type declared (a job without one does not compile)', () => {
    expect(expectTrue<[Exclude<JobName, DeclaredJob>] extends [never] ? true : false>()).toBeUndefined();
    // An undeclared job's data would be `never`: nothing could be enqueued for it.
    expect(expectTrue<[JobOf<Exclude<JobName, DeclaredJob>>] extends [never] ? true : false>()).toBeUndefined();
  });

  it('producers and handlers are checked against the data of their job', () => {
    expect(typeof producers).toBe('function');
    expect(Object.getOwnPropertyNames(Handlers.prototype)).toEqual(['constructor', 'right', 'wrong']);
  });
});
