import { ChildProcess } from 'node:child_process';
import { callingOrg } from '../calls/call-fixtures';
import { allEntries, rows, sampleMax, startCampaign, waitForCampaign } from '../dialer/campaign-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { forkWorker, sigkill } from './support/fork-worker';

const ENTRIES = 1000;
const CAP = 20;

/**
 * A 1,000-entry campaign over three worker processes, one SIGKILLed while calls are being placed: every entry
 * is dialled exactly once (one attempt, one call, one platform call), the organization's cap holds at every
 * sampled instant, and the campaign completes with every entry accounted for.
 */
describe('prove: a campaign over three workers, one killed', () => {
  let t: TestApp;
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    // The API and the scheduler run no worker: the three forked processes do all dispatching and stepping.
    t = await startTestApp({ env: { ROLES: 'api,scheduler' } });
    const env = { SIMULATOR_RING_MS: '50', SIMULATOR_CALL_MS: '300' };
    workers.push(...(await Promise.all([forkWorker(t, env), forkWorker(t, env), forkWorker(t, env)])));
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await sigkill(w);
    await t?.close();
  });

  it(`dials each of ${ENTRIES} entries once and keeps the cap of ${CAP}`, async () => {
    const org = await callingOrg(t, 10_000);
    await t.admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: CAP });
    const id = await startCampaign(org, { audience: { rows: rows('+1415570', ENTRIES, (i) => i % 7) } });

    const sampler = sampleMax(
      t,
      `SELECT count(*)::int AS n FROM calls WHERE organization_id = $1 AND status = 'processing'`,
      [org.id],
    );

    await waitForCampaign(org, id, (c) => c.counts.done >= 100, 120_000);
    await sigkill(workers[0]);
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 240_000);
    expect(await sampler.stop()).toBeLessThanOrEqual(CAP);
    expect(done.counts).toEqual({ total: ENTRIES, pending: 0, inProgress: 0, done: ENTRIES, skipped: 0 });
    const { rows: perNumber } = await t.db.query(
      `SELECT call_to, count(*)::int AS calls, count(DISTINCT api_call_id)::int AS platform
         FROM calls WHERE campaign_id = $1 GROUP BY call_to`,
      [id],
    );
    expect(perNumber).toHaveLength(ENTRIES);
    expect(perNumber.filter((r) => r.calls !== 1)).toEqual([]);
    expect(perNumber.filter((r) => r.platform > 1)).toEqual([]);
    const { rows: attempts } = await t.db.query(
      `SELECT count(*)::int AS n, count(DISTINCT entry_id)::int AS entries FROM campaign_attempts WHERE campaign_id = $1`,
      [id],
    );
    expect(attempts[0]).toEqual({ n: ENTRIES, entries: ENTRIES });
    const entries = await allEntries(org, id);
    expect(entries.every((e) => e.attempts.length === 1)).toBe(true);
  }, 400_000);
});
