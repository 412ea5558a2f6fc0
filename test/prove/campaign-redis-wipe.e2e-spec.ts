import IORedis from 'ioredis';
import { callingOrg } from '../calls/call-fixtures';
import { allEntries, rows, startCampaign, waitForCampaign } from '../dialer/campaign-fixtures';
import { TEST_REDIS_URL } from '../support/databases';
import { TestApp, startTestApp } from '../support/test-app';
import { wipeQueues } from './support/wipe-queues';

const ENTRIES = 200;
const CAP = 10;
/** The simulator's outcome of each last digit (docs/contracts/simulator.md). */
const OUTCOME = (digit: number) =>
  digit <= 6
    ? 'customer-ended-call'
    : { 7: 'voicemail-reached', 8: 'customer-did-not-answer', 9: 'pipeline-error' }[digit]!;

/**
 * PostgreSQL is the truth of a campaign, the queues only say "do this now". Every queue key of
 * the app is deleted twice while a campaign with redials runs; the job schedulers are put back, the sweepers
 * re-enqueue the calls whose dispatch jobs were lost, the tick steps the campaign again, and it completes with
 * every entry accounted for and dialled exactly once per attempt.
 *
 * The simulated platform keeps each live call's timeline in the same queues, so a call that was live at a wipe
 * loses its remaining events (a real platform would still report it); supervision reconciles such a call after
 * CALL_MAX_DURATION_MS + grace as `supervision-timeout`. Only those calls may differ from their number's outcome.
 */
describe('prove: a campaign survives its Redis keys wiped mid-run', () => {
  let t: TestApp;
  let redis: IORedis;
  beforeAll(async () => {
    t = await startTestApp({ env: { CALL_MAX_DURATION_MS: '3000', CALL_SUPERVISION_GRACE_MS: '1000' } });
    redis = new IORedis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
  });

  it(`completes ${ENTRIES} entries with redials, each attempt dialled once, after two wipes`, async () => {
    const org = await callingOrg(t, 10_000);
    const id = await startCampaign(org, {
      audience: { rows: rows('+1415571', ENTRIES) },
      maxConcurrent: CAP,
      retry: { on: ['customer-did-not-answer'], delaySeconds: 1, maxAttempts: 2 },
    });

    await waitForCampaign(org, id, (c) => c.counts.done >= ENTRIES / 4, 120_000);
    expect(await wipeQueues(redis, t.queuePrefix)).toBeGreaterThan(0);
    await waitForCampaign(org, id, (c) => c.counts.done >= ENTRIES / 2, 120_000);
    expect(await wipeQueues(redis, t.queuePrefix)).toBeGreaterThan(0);

    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 180_000);
    expect(done.counts).toEqual({ total: ENTRIES, pending: 0, inProgress: 0, done: ENTRIES, skipped: 0 });

    // Each (entry, attempt) has exactly one attempt row and one call, placed on the platform once.
    const { rows: perAttempt } = await t.db.query(
      `SELECT a.entry_id, a.attempt, count(*)::int AS attempts, count(DISTINCT c.id)::int AS calls,
              count(DISTINCT c.api_call_id)::int AS platform
         FROM campaign_attempts a JOIN calls c ON c.id = a.call_id
        WHERE a.campaign_id = $1 GROUP BY 1, 2`,
      [id],
    );
    expect(perAttempt.filter((r) => r.attempts !== 1 || r.calls !== 1 || r.platform !== 1)).toEqual([]);
    const { rows: calls } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1`, [id]);
    expect(calls[0].n).toBe(perAttempt.length);

    // Every entry ends as its number's digit says (a not-answered number redialled once: two attempts), except a
    // call whose simulated timeline died with a wipe; at most the calls live at the two wipes.
    const entries = await allEntries(org, id);
    expect(entries).toHaveLength(ENTRIES);
    const lost = entries.filter((e) => e.attempts.at(-1).endedReason === 'supervision-timeout');
    expect(lost.length).toBeLessThanOrEqual(2 * CAP);
    for (const e of entries.filter((x) => !lost.includes(x))) {
      const digit = Number(e.to.at(-1));
      const expected = digit === 8 ? ['customer-did-not-answer', 'customer-did-not-answer'] : [OUTCOME(digit)];
      expect({ to: e.to, reasons: e.attempts.map((a: any) => a.endedReason) }).toEqual({ to: e.to, reasons: expected });
    }
    const outcomes = Object.values(done.outcomes as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(outcomes).toBe(ENTRIES);
  }, 400_000);
});
