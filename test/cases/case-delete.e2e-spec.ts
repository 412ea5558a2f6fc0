import { createFollowUpCampaign, createRecurringSchedule, insertQueuedCall } from '../support/blocker-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Queued calls are inserted straight into `calls` (see insertQueuedCall): POST /calls is being built in
 * parallel on another branch.
 */
describe('case delete and its blockers', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  const newCase = async () =>
    (await org.api.post('/api/v1/cases', { title: 'To delete', prompt: 'p' })).body.data.id as string;
  const del = (id: string, api = org.api) => api.delete(`/api/v1/cases/${id}`);
  const exists = async (id: string) => (await org.api.get(`/api/v1/cases/${id}`)).status === 200;

  it('deletes an unreferenced case: 204, then 404', async () => {
    const id = await newCase();
    const res = await del(id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await exists(id)).toBe(false);
    expect((await del(id)).status).toBe(404);
  });

  it('is 404 for an unknown id and for a case of another organization (which stays)', async () => {
    const id = await newCase();
    const other = await createOrg(t);
    expect((await del(id, other.api)).status).toBe(404);
    expect(await exists(id)).toBe(true);
    expect((await del('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it.each(['new', 'scheduled', 'lock-processing'] as const)(
    'is blocked by a queued call in status %s',
    async (status) => {
      const id = await newCase();
      await insertQueuedCall(t, org.id, { caseId: id }, status);
      const res = await del(id);
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        code: 'CONFLICT',
        message: 'Case is in use: 1 queued call, 0 recurring schedules, 0 follow-up campaigns',
      });
      expect(await exists(id)).toBe(true);
    },
  );

  it('is not blocked by calls that were dispatched or finished', async () => {
    const id = await newCase();
    for (const status of ['processing', 'ended', 'cancelled', 'error'] as const) {
      await insertQueuedCall(t, org.id, { caseId: id }, status);
    }
    expect((await del(id)).status).toBe(204);
  });

  it('counts recurring schedules, active or paused', async () => {
    const id = await newCase();
    await createRecurringSchedule(t, org.id, { caseId: id }, 'active');
    await createRecurringSchedule(t, org.id, { caseId: id }, 'paused');
    const res = await del(id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Case is in use: 0 queued calls, 2 recurring schedules, 0 follow-up campaigns');
  });

  it('counts follow-up campaigns', async () => {
    const id = await newCase();
    await createFollowUpCampaign(t, org.id, { caseId: id });
    const res = await del(id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Case is in use: 0 queued calls, 0 recurring schedules, 1 follow-up campaign');
  });

  it('counts every kind at once', async () => {
    const id = await newCase();
    await insertQueuedCall(t, org.id, { caseId: id }, 'new');
    await insertQueuedCall(t, org.id, { caseId: id }, 'scheduled');
    await createRecurringSchedule(t, org.id, { caseId: id });
    await createFollowUpCampaign(t, org.id, { caseId: id });
    await createFollowUpCampaign(t, org.id, { caseId: id });
    await createFollowUpCampaign(t, org.id, { caseId: id });
    const res = await del(id);
    expect(res.body.error.message).toBe('Case is in use: 2 queued calls, 1 recurring schedule, 3 follow-up campaigns');
  });

  it('refuses schedules and campaigns for an unknown case or one of another organization', async () => {
    const other = await createOrg(t);
    const id = await newCase();
    const schedule = await t.admin.post(`/admin/v1/organizations/${other.id}/recurring-schedules`, { caseId: id });
    expect(schedule.status).toBe(404);
    const campaign = await t.admin.post(`/admin/v1/organizations/${org.id}/follow-up-campaigns`, {
      caseId: '00000000-0000-4000-8000-000000000000',
    });
    expect(campaign.status).toBe(404);
    const nothing = await t.admin.post(`/admin/v1/organizations/${org.id}/follow-up-campaigns`, {});
    expect(nothing.status).toBe(400);
    const badStatus = await t.admin.post(`/admin/v1/organizations/${org.id}/recurring-schedules`, {
      caseId: id,
      status: 'running',
    });
    expect(badStatus.status).toBe(400);
  });

  it('waits for a concurrent call creation holding the case FOR SHARE, then counts that call', async () => {
    const id = await newCase();
    // What call creation does: lock the case FOR SHARE, insert the call, commit.
    const creator = await t.db.connect();
    try {
      await creator.query('BEGIN');
      await creator.query('SELECT id FROM cases WHERE id = $1 FOR SHARE', [id]);
      const pending = del(id);
      // The delete reaches the case's row lock and waits there (the event this test needs), however long that takes.
      const lockWaits = async () =>
        (
          await t.db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%FOR UPDATE%'`,
          )
        ).rows[0].n;
      for (let i = 0; i < 200 && (await lockWaits()) < 1; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await lockWaits()).toBeGreaterThanOrEqual(1);
      await creator.query(
        `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, case_id)
         VALUES (gen_random_uuid(), $1, 'new', 'outbound', '+14155550100', '+14155550123', $2)`,
        [org.id, id],
      );
      await creator.query('COMMIT');
      const res = await pending;
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(
        'Case is in use: 1 queued call, 0 recurring schedules, 0 follow-up campaigns',
      );
    } finally {
      creator.release();
    }
  });

  it('makes a call creation that comes after the delete find no case', async () => {
    const id = await newCase();
    expect((await del(id)).status).toBe(204);
    const locked = await t.db.query('SELECT id FROM cases WHERE id = $1 FOR SHARE', [id]);
    expect(locked.rowCount).toBe(0);
  });
});
