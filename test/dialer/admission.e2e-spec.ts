import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { sampleMax } from './campaign-fixtures';

/** The organization's live calls, sampled every 50 ms. */
const sampleLiveCalls = (t: TestApp, orgId: string) =>
  sampleMax(t, `SELECT count(*)::int AS n FROM calls WHERE organization_id = $1 AND status = 'processing'`, [orgId]);

describe('dialer: admission control (docs/contracts/dialer.md)', () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  it('reports the default limit of 10 with nothing live or queued', async () => {
    const res = await org.api.get('/api/v1/limits');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ maxConcurrentCalls: 10, inboundReserve: 0, liveCalls: 0, queuedCalls: 0 });
  });

  it('refuses a limit out of bounds with 400 and an unknown organization with 404', async () => {
    expect((await t.admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: 0 })).status).toBe(
      400,
    );
    const missing = await t.admin.post('/admin/v1/organizations/00000000-0000-7000-8000-000000000000/limits', {
      maxConcurrentCalls: 5,
    });
    expect(missing.status).toBe(404);
  });

  it('never lets more than the cap go live; calls over it wait as `new` and all complete', async () => {
    const other = await callingOrg(t);
    const set = await t.admin.post(`/admin/v1/organizations/${other.id}/limits`, { maxConcurrentCalls: 3 });
    expect(set.status).toBe(200);
    expect(set.body.data.maxConcurrentCalls).toBe(3);

    const sampler = sampleLiveCalls(t, other.id);
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        other.api.post('/api/v1/calls', { to: `+1415555020${i % 7}`, from: other.from }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    let sawQueue = false;
    for (let i = 0; i < 20 && !sawQueue; i++) {
      const limits = (await other.api.get('/api/v1/limits')).body.data;
      expect(limits.liveCalls).toBeLessThanOrEqual(3);
      sawQueue = limits.queuedCalls > 0;
    }
    expect(sawQueue).toBe(true);
    for (const r of created) await waitForCall(other, r.body.data.id, finished, 30_000);
    expect(await sampler.stop()).toBe(3);

    const { rows } = await t.db.query(
      `SELECT status, count(*)::int AS n FROM calls WHERE organization_id = $1 GROUP BY status`,
      [other.id],
    );
    expect(rows).toEqual([{ status: 'ended', n: 12 }]);
  });

  it('keeps the inbound reserve free of outbound calls', async () => {
    const other = await callingOrg(t);
    await t.admin.post(`/admin/v1/organizations/${other.id}/limits`, { maxConcurrentCalls: 3, inboundReserve: 2 });
    const sampler = sampleLiveCalls(t, other.id);
    const created = await Promise.all(
      Array.from({ length: 4 }, (_, i) => other.api.post('/api/v1/calls', { to: `+1415555030${i}`, from: other.from })),
    );
    for (const r of created) await waitForCall(other, r.body.data.id, finished, 30_000);
    expect(await sampler.stop()).toBe(1);
  });
});
