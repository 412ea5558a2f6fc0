import { JobQueue } from '../../src/infra/queue/job-queue';
import { JOB_QUEUE, JobName } from '../../src/infra/queue/queue-names';
import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, finished, insertCase, waitForCall } from '../calls/call-fixtures';
import { occurNow } from './campaign-fixtures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('dialer: recurring schedules and follow-up campaigns place real calls', () => {
  let t: TestApp;
  let org: CallsOrg;
  let caseId: string;
  beforeAll(async () => {
    t = await startTestApp();
    // A second scheduler (and worker) process on the same database and queues.
    await t.startPeer({ ROLES: 'scheduler,worker' });
    org = await callingOrg(t);
    caseId = await insertCase(t, org, { prompt: 'Remind {{name}}', firstMessage: 'Hello' });
  });
  afterAll(() => t?.close());

  /** Waits until `n` recurring-schedule ticks that started after this call have completed, whichever process ran them. */
  const ticksPass = async (n: number) => {
    const since = Date.now();
    const queue = t.app.get(JobQueue).queue(JOB_QUEUE[JobName.RecurringScheduleTick]);
    for (const deadline = since + 15_000; Date.now() < deadline; await sleep(50)) {
      const done = (await queue.getJobs(['completed'], 0, 100)).filter(
        (j) => j.name === JobName.RecurringScheduleTick && (j.processedOn ?? 0) >= since,
      );
      if (done.length >= n) return;
    }
    throw new Error(`fewer than ${n} schedule ticks completed`);
  };

  /** Waits until the end events of these calls went through every listener (the follow-ups decided on them). */
  const endsProcessed = async (callIds: string[]) => {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(50)) {
      const { rows } = await t.db.query(
        `SELECT count(*)::int AS n FROM outbox_events
          WHERE data->>'callId' = ANY($1) AND type IN ('call.ended', 'call.failed') AND processed_at IS NOT NULL`,
        [callIds],
      );
      if (rows[0].n >= callIds.length) return;
    }
    throw new Error("the calls' end events were not processed");
  };

  it('fires a recurring schedule once per occurrence with two schedulers; paused, it fires nothing', async () => {
    const created = await t.admin.post(`/admin/v1/organizations/${org.id}/recurring-schedules`, {
      caseId,
      rrule: 'FREQ=HOURLY',
      timeZone: 'Europe/Paris',
      from: org.from,
      audience: { rows: [{ to: '+14155650000' }] },
    });
    expect(created.status).toBe(201);
    const scheduleId = created.body.data.id;
    const occurrences = async () =>
      (
        await t.db.query(
          `SELECT c.source_key, c.start_at, (SELECT count(*)::int FROM campaign_entries e WHERE e.campaign_id = c.id) AS entries
             FROM campaigns c WHERE c.source_id = $1 ORDER BY c.start_at`,
          [scheduleId],
        )
      ).rows;
    await occurNow(t, scheduleId);
    await ticksPass(2); // the schedulers tick at least twice more
    expect(await occurrences()).toHaveLength(1);
    await occurNow(t, scheduleId);
    await ticksPass(2);
    const fired = await occurrences();
    expect(fired).toHaveLength(2);
    for (const o of fired) expect(o.entries).toBe(1);
    expect(new Set(fired.map((o) => o.source_key)).size).toBe(2);
    // The next occurrence is the rule's own again: the top of an hour to come, in the schedule's zone.
    const { rows: next } = await t.db.query('SELECT next_occurrence_at FROM recurring_schedules WHERE id = $1', [
      scheduleId,
    ]);
    const nextAt = new Date(next[0].next_occurrence_at).getTime();
    expect(nextAt).toBeGreaterThan(Date.now());
    expect(nextAt).toBeLessThanOrEqual(Date.now() + 3600_000);

    const paused = await t.admin.post(`/admin/v1/recurring-schedules/${scheduleId}/pause`, {});
    expect(paused.body.data.status).toBe('paused');
    await t.db.query(`UPDATE recurring_schedules SET next_occurrence_at = now() WHERE id = $1`, [scheduleId]);
    await ticksPass(2); // due, but paused: ticks pass it by
    expect(await occurrences()).toHaveLength(fired.length);
    const { rows: after } = await t.db.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE case_id = $2)::int AS with_case FROM calls
        WHERE campaign_id IN (SELECT id FROM campaigns WHERE source_id = $1)`,
      [scheduleId, caseId],
    );
    expect(after[0].n).toBe(fired.length);
    // Every occurrence's call placed once, with the schedule's case.
    expect(after[0].with_case).toBe(fired.length);

    // Still a delete blocker.
    expect((await org.api.delete(`/api/v1/cases/${caseId}`)).status).toBe(409);
  });

  it('follows a not-answered call with another call to the number after the delay, once, without chains', async () => {
    const followUp = await t.admin.post(`/admin/v1/organizations/${org.id}/follow-up-campaigns`, {
      caseId,
      from: org.from,
      delaySeconds: 1,
    });
    expect(followUp.status).toBe(201);
    expect(followUp.body.data.triggerOn).toEqual(['customer-did-not-answer', 'voicemail-reached']);
    const unanswered = await org.api.post('/api/v1/calls', { to: '+14155660008', from: org.from, caseId });
    const answered = await org.api.post('/api/v1/calls', { to: '+14155660000', from: org.from, caseId });
    const first = await waitForCall(org, unanswered.body.data.id, finished);
    await waitForCall(org, answered.body.data.id, finished);
    expect(first.endedReason).toBe('customer-did-not-answer');

    const deadline = Date.now() + 15_000;
    let rows: any[] = [];
    while (Date.now() < deadline) {
      ({ rows } = await t.db.query(
        `SELECT id, campaign_id, created_at, status FROM calls WHERE call_to = '+14155660008' ORDER BY created_at`,
      ));
      if (rows.length === 2 && ['ended', 'error'].includes(rows[1].status)) break;
      await sleep(100);
    }
    expect(rows).toHaveLength(2);
    expect(new Date(rows[1].created_at).getTime() - Date.parse(first.updatedAt)).toBeGreaterThanOrEqual(900);
    const followCall = (await org.api.get(`/api/v1/calls/${rows[1].id}`)).body.data;
    expect(followCall).toMatchObject({ caseId, campaignId: rows[1].campaign_id, callTo: '+14155660008' });
    // The follow-up call was not answered either, but a follow-up never follows itself; the answered call had none.
    await endsProcessed([rows[1].id, answered.body.data.id]);
    const { rows: chained } = await t.db.query(
      `SELECT count(*)::int AS n FROM campaigns WHERE source_type = 'follow_up' AND source_key = ANY($1)`,
      [[rows[1].id, answered.body.data.id]],
    );
    expect(chained[0].n).toBe(0);
    const { rows: count } = await t.db.query(
      `SELECT call_to, count(*)::int AS n FROM calls WHERE call_to IN ('+14155660008', '+14155660000') GROUP BY 1 ORDER BY 1`,
    );
    expect(count).toEqual([
      { call_to: '+14155660000', n: 1 },
      { call_to: '+14155660008', n: 2 },
    ]);
  }, 40_000);
});
