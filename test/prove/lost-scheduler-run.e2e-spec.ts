import IORedis from 'ioredis';
import { SCHEDULE_CHECK_MS } from '../../src/infra/queue/job-registry';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { JobName, QueueName } from '../../src/infra/queue/queue-names';
import { TEST_REDIS_URL } from '../support/databases';
import { TestApp, startTestApp } from '../support/test-app';

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

  it('registers the hourly outbox pruning again once its next run is gone', async () => {
    const queue = t.app.get(JobQueue).queue(QueueName.Maintenance);
    const name = JobName.PruneOutbox;
    const nextRunId = async () => {
      const scheduler = await queue.getJobScheduler(name);
      return scheduler?.next == null ? undefined : `repeat:${name}:${scheduler.next}`;
    };
    const lost = await nextRunId();
    expect(lost).toBeDefined();
    // The next run is an hour away: nothing else touches it while the test runs.
    const job = await queue.getJob(lost!);
    expect(await job?.getState()).toBe('delayed');

    await redis.multi().zrem(queue.keys.delayed, lost!).del(queue.toKey(lost!)).exec();
    expect(await queue.getJob(lost!)).toBeUndefined();
    expect(await queue.getJobScheduler(name)).toBeDefined();

    const deadline = Date.now() + 4 * SCHEDULE_CHECK_MS;
    let restored: string | undefined;
    while (Date.now() < deadline) {
      const id = await nextRunId();
      if (id && id !== lost && (await queue.getJob(id))) {
        restored = id;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(restored).toBeDefined();
    expect((await queue.getJobSchedulers()).filter((s) => s.name === name)).toHaveLength(1);
  });
});
