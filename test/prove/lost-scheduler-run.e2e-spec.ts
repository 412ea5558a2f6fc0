import IORedis from 'ioredis';
import { SCHEDULE_CHECK_MS } from '../../src/infra/queue/job-registry';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { JobName, QueueName } from '../../src/infra/queue/queue-names';
import { TEST_REDIS_URL } from '../support/databases';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * A job scheduler fires only through its next run, a delayed job in the queue store. When the store keeps the
 * scheduler's record but loses that job (a failover that dropped the last writes, a partial flush, as the wipes
 * of the other prove suites can leave it), the scheduler role's check registers it again within a few checks,
 * instead of trusting the record and never firing again.
 */
describe('prove: a scheduler whose next run was lost fires again', () => {
  let t: TestApp;
  let redis: IORedis;
  beforeAll(async () => {
    t = await startTestApp();
    redis = new IORedis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
  });

  /** The next run of the hourly outbox pruning, as its scheduler's record names it. */
  const nextRunId = async () => {
    const scheduler = await t.app.get(JobQueue).queue(QueueName.Maintenance).getJobScheduler(JobName.PruneOutbox);
    return scheduler?.next == null ? undefined : `repeat:${JobName.PruneOutbox}:${scheduler.next}`;
  };

  /** Takes the next run out of the delayed set (and its job record too, if `whole`); waits for a new next run. */
  const loseAndRestore = async (whole: boolean) => {
    const queue = t.app.get(JobQueue).queue(QueueName.Maintenance);
    // A scheduler this app's start registered runs its first tick at once, so its next run can be active right
    // after start: wait for the next run an hour away, delayed, which nothing else touches while the test runs.
    const lost = await waitUntil("the outbox pruning's next run delayed", async () => {
      const id = await nextRunId();
      return id !== undefined && (await (await queue.getJob(id))?.getState()) === 'delayed' && id;
    });

    const loss = redis.multi().zrem(queue.keys.delayed, lost);
    await (whole ? loss.del(queue.toKey(lost)) : loss).exec();
    expect(await (await queue.getJob(lost))?.getState()).toBe(whole ? undefined : 'unknown');
    expect(await queue.getJobScheduler(JobName.PruneOutbox)).toBeDefined();

    const deadline = Date.now() + 4 * SCHEDULE_CHECK_MS;
    let restored: string | undefined;
    while (Date.now() < deadline) {
      const id = await nextRunId();
      if (id && id !== lost && (await (await queue.getJob(id))?.getState()) === 'delayed') {
        restored = id;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(restored).toBeDefined();
    expect((await queue.getJobSchedulers()).filter((s) => s.name === JobName.PruneOutbox)).toHaveLength(1);
  };

  it('registers the hourly outbox pruning again once its next run is gone', () => loseAndRestore(true));

  // A wipe by SCAN and DEL is not atomic: it can take the delayed set and leave the job's record, which alone
  // never fires.
  it('registers it again when its next run is out of the delayed set but its record is left', () =>
    loseAndRestore(false));
});
