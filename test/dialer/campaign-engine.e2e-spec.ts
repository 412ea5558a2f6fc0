import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { ALL_DAYS, allEntries, rows, sampleMax, startCampaign, utcClock, waitForCampaign } from './campaign-fixtures';

/** The campaign's live calls, sampled every 50 ms. */
const sampleCampaignCalls = (t: TestApp, campaignId: string) =>
  sampleMax(t, `SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1 AND status = 'processing'`, [campaignId]);

describe('dialer: the campaign engine over the simulator (docs/contracts/simulator.md, docs/contracts/dialer.md)', () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t, 10_000);
  });
  afterAll(() => t?.close());

  it('200 entries with maxConcurrent 5: never more than 5 live, every entry called once, right outcomes', async () => {
    const id = await startCampaign(org, { audience: { rows: rows('+1415560', 200) }, maxConcurrent: 5 });
    const sampler = sampleCampaignCalls(t, id);
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 150_000);
    const max = await sampler.stop();
    expect(max).toBeLessThanOrEqual(5);
    expect(max).toBeGreaterThan(1);
    expect(done.counts).toEqual({ total: 200, pending: 0, inProgress: 0, done: 200, skipped: 0 });
    expect(done.outcomes).toEqual({
      'customer-ended-call': 140,
      'voicemail-reached': 20,
      'customer-did-not-answer': 20,
      'pipeline-error': 20,
    });
    const { rows: calls } = await t.db.query(
      `SELECT call_to, count(*)::int AS n FROM calls WHERE campaign_id = $1 GROUP BY call_to`,
      [id],
    );
    expect(calls).toHaveLength(200);
    expect(calls.every((c) => c.n === 1)).toBe(true);
    const listed = await org.api.get(`/api/v1/calls?limit=1`);
    expect(listed.body.data[0].campaignId).toBe(id);
    const { rows: events } = await t.db.query(
      `SELECT type FROM outbox_events WHERE type LIKE 'campaign.%' AND data->>'campaignId' = $1 ORDER BY id`,
      [id],
    );
    expect(events.map((e) => e.type)).toEqual(['campaign.started', 'campaign.completed']);
  }, 180_000);

  it('retries a not-answered entry after the delay and stops at maxAttempts', async () => {
    const id = await startCampaign(org, {
      audience: { rows: rows('+1415561', 2, (i) => (i === 0 ? 8 : 0)) },
      retry: { on: ['customer-did-not-answer'], delaySeconds: 1, maxAttempts: 3 },
    });
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 30_000);
    expect(done.outcomes).toEqual({ 'customer-did-not-answer': 1, 'customer-ended-call': 1 });
    const entries = await allEntries(org, id);
    const unanswered = entries.find((e) => e.to.endsWith('8'));
    expect(unanswered.attempts).toHaveLength(3);
    expect(unanswered.attempts.every((a: any) => a.endedReason === 'customer-did-not-answer')).toBe(true);
    const at = unanswered.attempts.map((a: any) => Date.parse(a.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(1000);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(1000);
    expect(entries.find((e) => e.to.endsWith('0')).attempts).toHaveLength(1);
  }, 40_000);

  it('waits for the window in the contact zone: a Paris number outside its local hours is not called', async () => {
    // Open now in UTC (the default zone of US numbers); Paris is ahead of UTC, so there it already closed.
    const window = { days: ALL_DAYS, start: utcClock(-30), end: utcClock(20), timezone: 'UTC' };
    const id = await startCampaign(org, {
      audience: { rows: [{ to: '+14155620000' }, { to: '+33612345670' }] },
      window,
    });
    await waitForCampaign(org, id, (c) => c.counts.done === 1, 20_000);
    const entries = await allEntries(org, id);
    const paris = entries.find((e) => e.to === '+33612345670');
    expect(paris).toMatchObject({ status: 'pending', timeZone: 'Europe/Paris', attempts: [] });
    expect(Date.parse(paris.nextAttemptAt)).toBeGreaterThan(Date.now() + 60 * 60_000);
    expect(entries.find((e) => e.to === '+14155620000')).toMatchObject({ status: 'done', timeZone: 'UTC' });
    const campaign = (await org.api.get(`/api/v1/campaigns/${id}`)).body.data;
    expect(campaign.status).toBe('running');
    expect((await org.api.post(`/api/v1/campaigns/${id}/cancel`)).status).toBe(200);
  });

  it('never dials a number on the do-not-call list; the entry is skipped', async () => {
    await org.api.post('/api/v1/do-not-call', { number: '+14155630001' });
    const id = await startCampaign(org, {
      audience: { rows: [{ to: '+14155630000' }, { to: '+14155630001' }] },
    });
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 20_000);
    expect(done.counts).toMatchObject({ done: 1, skipped: 1 });
    const entries = await allEntries(org, id);
    expect(entries.find((e) => e.to === '+14155630001')).toMatchObject({
      status: 'skipped',
      skipReason: 'DO_NOT_CALL',
      skipDetail: '+14155630001 is on the do-not-call list',
    });
    const { rows: calls } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE call_to = '+14155630001'`);
    expect(calls[0].n).toBe(0);
  });

  it('pauses with OUTBOUND_MINUTES_EXHAUSTED when minutes run out and resumes after a top-up', async () => {
    const poor = await callingOrg(t, 2);
    const id = await startCampaign(poor, { audience: { rows: rows('+1415564', 5, () => 0) }, maxConcurrent: 1 });
    // The engine may pause while the second call is still live (its minute is reserved, none is left for a
    // third): wait for that call to end before counting.
    const paused = await waitForCampaign(poor, id, (c) => c.status === 'paused' && c.counts.inProgress === 0, 20_000);
    expect(paused.pausedReason).toBe('OUTBOUND_MINUTES_EXHAUSTED');
    expect(paused.counts.done).toBe(2);
    const grant = await t.admin.post(`/admin/v1/organizations/${poor.id}/minute-grants`, {
      mins: 10,
      type: 'addon_purchase',
    });
    expect(grant.status).toBe(201);
    const done = await waitForCampaign(poor, id, (c) => c.status === 'completed', 20_000);
    expect(done.counts).toMatchObject({ done: 5, skipped: 0 });
    expect(done.pausedReason).toBeNull();
    const { rows: events } = await t.db.query(
      `SELECT type, data->>'pausedReason' AS reason FROM outbox_events
        WHERE type LIKE 'campaign.%' AND data->>'campaignId' = $1 ORDER BY id`,
      [id],
    );
    expect(events).toEqual([
      { type: 'campaign.started', reason: null },
      { type: 'campaign.paused', reason: 'OUTBOUND_MINUTES_EXHAUSTED' },
      { type: 'campaign.completed', reason: null },
    ]);
  }, 40_000);
});
