import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { callingOrg, eventsOf, finished, waitForCall } from './call-fixtures';

describe('calls: minute checks at creation and at dispatch (docs/contracts/conventions.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('an organization without an outbound plan gets 403 OUTBOUND_PLAN_REQUIRED and no call', async () => {
    const org = await createOrg(t);
    const from = '+14155557001';
    expect((await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: from })).status).toBe(201);
    const res = await org.api.post('/api/v1/calls', { to: '+14155550123', from });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('OUTBOUND_PLAN_REQUIRED');
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM calls WHERE organization_id = $1', [org.id]);
    expect(rows[0].n).toBe(0);
  });

  it('reserves at dispatch: with one minute, of two calls due together one runs and one fails; then 402', async () => {
    const org = await callingOrg(t, 1);
    const scheduledAt = new Date(Date.now() + 1500).toISOString();
    // Scheduling reserves nothing, so both are accepted.
    const a = await org.api.post('/api/v1/calls', { to: '+14155550120', from: org.from, scheduledAt });
    const b = await org.api.post('/api/v1/calls', { to: '+14155550121', from: org.from, scheduledAt });
    expect([a.status, b.status]).toEqual([201, 201]);
    const calls = [await waitForCall(org, a.body.data.id, finished), await waitForCall(org, b.body.data.id, finished)];
    const ran = calls.filter((c) => c.status === 'ended');
    const blocked = calls.filter((c) => c.status === 'error');
    expect(ran).toHaveLength(1);
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toMatchObject({ endedReason: 'outbound-minutes-exhausted', apiCallId: null, transcript: [] });
    expect((await eventsOf(t, blocked[0].id)).map((e) => e.type)).toEqual(['call.scheduled', 'call.failed']);
    expect((await eventsOf(t, ran[0].id)).map((e) => e.type)).toEqual(['call.scheduled', 'call.started', 'call.ended']);

    const res = await org.api.post('/api/v1/calls', { to: '+14155550122', from: org.from });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('OUTBOUND_MINUTES_EXHAUSTED');
  });
});
