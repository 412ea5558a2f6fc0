import { callingOrg, CallsOrg, waitForCall } from '../calls/call-fixtures';
import { bodyOf } from '../support/event-bodies';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** Case versions over HTTP: the rules of what makes a version are unit-tested (src/modules/cases/case-content.spec.ts). */
describe('case versions', () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  const newCase = async () => {
    const res = await org.api.post('/api/v1/cases', { title: 'Reminder', prompt: 'Remind.', firstMessage: 'Hi v1' });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const versions = (id: string, query = '') => org.api.get(`/api/v1/cases/${id}/versions${query}`);

  it('a new case is version 1, listed with its content', async () => {
    const c = await newCase();
    expect(c.version).toBe(1);
    const res = await versions(c.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({ version: 1, prompt: 'Remind.', firstMessage: 'Hi v1', variables: [], toolIds: [] }),
    ]);
    expect(res.body.data[0].createdAt).toEqual(expect.any(String));
  });

  it('a rename keeps the version; a prompt change makes the next one; the same prompt sent back does not', async () => {
    const c = await newCase();
    const renamed = await org.api.patch(`/api/v1/cases/${c.id}`, { title: 'Renamed', tags: ['x'] });
    expect(renamed.body.data.version).toBe(1);
    const changed = await org.api.patch(`/api/v1/cases/${c.id}`, { prompt: 'Confirm.', firstMessage: 'Hi v2' });
    expect(changed.body.data.version).toBe(2);
    const again = await org.api.patch(`/api/v1/cases/${c.id}`, changed.body.data);
    expect(again.status).toBe(200);
    expect(again.body.data.version).toBe(2);
    const list = await versions(c.id);
    expect(list.body.data.map((v: any) => [v.version, v.prompt, v.firstMessage])).toEqual([
      [2, 'Confirm.', 'Hi v2'],
      [1, 'Remind.', 'Hi v1'],
    ]);
  });

  it('attaching tools makes a version (admin API)', async () => {
    const c = await newCase();
    const tool = await t.admin.post(`/admin/v1/organizations/${org.id}/tools`, { type: 'end-call', name: 'bye' });
    expect(tool.status).toBe(201);
    const attached = await t.admin.post(`/admin/v1/cases/${c.id}/tools`, { toolIds: [tool.body.data.id] });
    expect(attached.status).toBeLessThan(300);
    const list = await versions(c.id);
    expect(list.body.data[0]).toMatchObject({ version: 2, toolIds: [tool.body.data.id] });
  });

  it('pages like other lists and is 404 for another organization', async () => {
    const c = await newCase();
    await org.api.patch(`/api/v1/cases/${c.id}`, { prompt: 'Two.' });
    await org.api.patch(`/api/v1/cases/${c.id}`, { prompt: 'Three.' });
    const first = await versions(c.id, '?limit=2');
    expect(first.body.data.map((v: any) => v.version)).toEqual([3, 2]);
    expect(first.body.pagination).toMatchObject({ hasMore: true, pageSize: 2 });
    const next = await versions(c.id, `?limit=2&cursor=${encodeURIComponent(first.body.pagination.cursor)}`);
    expect(next.body.data.map((v: any) => v.version)).toEqual([1]);
    const other = await createOrg(t);
    const res = await other.api.get(`/api/v1/cases/${c.id}/versions`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it("a call records the case's current version, or runs an older one it names; its events carry it", async () => {
    const c = await newCase();
    await org.api.patch(`/api/v1/cases/${c.id}`, { firstMessage: 'Hi v2' });
    const base = { from: org.from, to: '+14155550101', caseId: c.id };
    const current = await org.api.post('/api/v1/calls', base);
    expect(current.status).toBe(201);
    expect(current.body.data).toMatchObject({ caseVersion: 2, firstMessage: 'Hi v2' });
    const older = await org.api.post('/api/v1/calls', { ...base, caseVersion: 1 });
    expect(older.status).toBe(201);
    expect(older.body.data).toMatchObject({ caseVersion: 1, firstMessage: 'Hi v1' });
    await waitForCall(org, older.body.data.id, (call) => call.status === 'ended');
    const { rows } = await t.db.query(
      `SELECT type, organization_id, livemode, data FROM outbox_events WHERE organization_id = $1 AND type = 'call.ended' AND data->>'callId' = $2`,
      [org.id, older.body.data.id],
    );
    expect(rows).toHaveLength(1);
    expect(await bodyOf(t, rows[0])).toMatchObject({ caseVersion: 1 });
  });

  it('a version the case does not have, or a version without a case, is 400 VALIDATION_ERROR', async () => {
    const c = await newCase();
    const unknown = await org.api.post('/api/v1/calls', {
      from: org.from,
      to: '+14155550101',
      caseId: c.id,
      caseVersion: 2,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    const noCase = await org.api.post('/api/v1/calls', { from: org.from, to: '+14155550101', caseVersion: 1 });
    expect(noCase.status).toBe(400);
    expect(noCase.body.error.message).toContain('caseVersion');
  });
});
