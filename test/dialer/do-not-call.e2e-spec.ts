import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { createAccount, userWrites } from '../messaging/messaging-fixtures';

describe('dialer: do-not-call ledger (docs/contracts/dialer.md)', () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  it('adds (201, then 200 for the same number), lists newest first with cursors, removes (204) with history kept', async () => {
    const first = await org.api.post('/api/v1/do-not-call', { number: '+1 415-555-0400', reason: 'asked' });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      number: '+14155550400',
      reason: 'asked',
      source: 'api',
      createdAt: expect.any(String),
      livemode: true,
    });
    expect((await org.api.post('/api/v1/do-not-call', { number: '+14155550400' })).status).toBe(200);
    for (const n of [1, 2]) await org.api.post('/api/v1/do-not-call', { number: `+1415555040${n}` });

    const page1 = await org.api.get('/api/v1/do-not-call?limit=2');
    expect(page1.body.data.map((e: any) => e.number)).toEqual(['+14155550402', '+14155550401']);
    expect(page1.body.pagination.hasMore).toBe(true);
    const page2 = await org.api.get(`/api/v1/do-not-call?limit=2&cursor=${page1.body.pagination.cursor}`);
    expect(page2.body.data.map((e: any) => e.number)).toEqual(['+14155550400']);

    expect((await org.api.delete('/api/v1/do-not-call/%2B14155550401')).status).toBe(204);
    expect((await org.api.delete('/api/v1/do-not-call/%2B14155550401')).status).toBe(404);
    expect((await org.api.delete('/api/v1/do-not-call/not-a-number')).status).toBe(400);
    const after = await org.api.get('/api/v1/do-not-call');
    expect(after.body.data.map((e: any) => e.number)).toEqual(['+14155550402', '+14155550400']);
    const { rows } = await t.db.query(
      `SELECT removed_at IS NOT NULL AS removed, removed_by FROM do_not_call_entries WHERE number = '+14155550401'`,
    );
    expect(rows).toEqual([{ removed: true, removed_by: 'api' }]);
  });

  it('validates the number and keeps organizations apart; scopes are enforced', async () => {
    expect((await org.api.post('/api/v1/do-not-call', { number: '12345' })).status).toBe(400);
    const other = await callingOrg(t);
    expect((await other.api.get('/api/v1/do-not-call')).body.data).toEqual([]);
    expect((await other.api.delete('/api/v1/do-not-call/%2B14155550400')).status).toBe(404);
    const reader = await org.keyWith(['do_not_call:read']);
    expect((await reader.api.get('/api/v1/do-not-call')).status).toBe(200);
    const denied = await reader.api.post('/api/v1/do-not-call', { number: '+14155550409' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('refuses POST /calls to a listed number with 422 DO_NOT_CALL and creates nothing', async () => {
    await org.api.post('/api/v1/do-not-call', { number: '+14155550410' });
    const res = await org.api.post('/api/v1/calls', { to: '+14155550410', from: org.from });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('DO_NOT_CALL');
    const { rows } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE call_to = '+14155550410'`);
    expect(rows[0].n).toBe(0);
  });

  it('never dials a queued call whose number was listed after it was created', async () => {
    const scheduledAt = new Date(Date.now() + 1500).toISOString();
    const created = await org.api.post('/api/v1/calls', { to: '+14155550420', from: org.from, scheduledAt });
    expect(created.status).toBe(201);
    await org.api.post('/api/v1/do-not-call', { number: '+14155550420' });
    const call = await waitForCall(org, created.body.data.id, finished);
    expect(call).toMatchObject({ status: 'error', endedReason: 'do-not-call', apiCallId: null });
  });

  it('lists the sender of a STOP chat message (and its variants), source `message`', async () => {
    const account = await createAccount(t, org.id);
    await userWrites(t, account.id, '+14155550430', '  stop ');
    await userWrites(t, account.id, '+14155550431', 'Unsubscribe');
    await userWrites(t, account.id, '+14155550432', 'please stop calling');
    const listed = (await org.api.get('/api/v1/do-not-call?limit=100')).body.data;
    const byNumber = new Map(listed.map((e: any) => [e.number, e]));
    expect(byNumber.get('+14155550430')).toMatchObject({ source: 'message' });
    expect(byNumber.get('+14155550431')).toMatchObject({ source: 'message' });
    expect(byNumber.has('+14155550432')).toBe(false);
    const res = await org.api.post('/api/v1/calls', { to: '+14155550430', from: org.from });
    expect(res.body.error.code).toBe('DO_NOT_CALL');
  });
});
