import { randomUUID } from 'node:crypto';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { admin } from './usage-support';

describe('admin API billing rows (docs/contracts/admin-api.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('creates subscriptions: tiers 1/2/3 include 100/300/800 minutes per item x quantity', async () => {
    for (const [tier, quantity, mins] of [
      [1, 1, 100],
      [2, 3, 900],
      [3, 2, 1600],
    ]) {
      const org = await createOrg(t);
      const res = await t.admin.post(`/admin/v1/organizations/${org.id}/subscriptions`, {
        productType: 'outreach',
        tier,
        quantity,
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ id: expect.any(String), status: 'active', tier, quantity });
      const usage = (await org.api.get('/api/v1/usage')).body.data;
      expect(usage.plan.includedMins).toBe(mins);
      expect(usage.balanceMins).toBe(mins);
    }
  });

  it('rejects bad input with 400 and unknown ids with 404', async () => {
    const org = await createOrg(t);
    const base = `/admin/v1/organizations/${org.id}`;
    const cases: [string, unknown, string][] = [
      [`${base}/subscriptions`, { productType: 'outreach' }, 'tier'],
      [`${base}/subscriptions`, { productType: 'fax', tier: 1 }, 'productType'],
      [`${base}/subscriptions`, { productType: 'outreach', tier: 4 }, 'tier'],
      [`${base}/trial`, { days: 0, mins: 10 }, 'days'],
      [`${base}/minute-grants`, { mins: 5, type: 'gift' }, 'type'],
      [`${base}/minute-grants`, { mins: -5, type: 'addon_purchase' }, 'mins'],
      [`${base}/minute-grants`, { mins: -5, type: 'admin_adjustment' }, 'mins'],
    ];
    for (const [path, body, field] of cases) {
      const res = await t.admin.post(path, body);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(res.body.error.message).toContain(field);
    }
    const missing = randomUUID();
    expect((await t.admin.post(`/admin/v1/organizations/${missing}/trial`, { days: 3, mins: 3 })).status).toBe(404);
    expect((await t.admin.post(`/admin/v1/subscriptions/${missing}/renew`)).status).toBe(404);
    expect((await t.admin.post(`/admin/v1/subscriptions/${missing}/cancel`, {})).status).toBe(404);
    expect((await org.api.post(`${base}/trial`, { days: 3, mins: 3 })).status).toBe(401);
  });

  it('grants top-ups and adjustments with ledger rows; negative adjustments never overdraw', async () => {
    const org = await createOrg(t);
    const base = `/admin/v1/organizations/${org.id}/minute-grants`;
    const row = await admin(t, base, { mins: 20, type: 'addon_purchase', description: 'Pack of 20' });
    expect(row).toMatchObject({
      id: expect.any(String),
      type: 'addon_purchase',
      amountMins: 20,
      balanceAfterMins: 20,
      description: 'Pack of 20',
    });
    expect(await admin(t, base, { mins: -8, type: 'admin_adjustment' })).toMatchObject({
      amountMins: -8,
      balanceAfterMins: 12,
    });
    expect((await t.admin.post(base, { mins: -13, type: 'admin_adjustment' })).status).toBe(400);
    expect((await org.api.get('/api/v1/usage')).body.data.balanceMins).toBe(12);
  });

  it('cancels now (included minutes expire) or at period end; renews into a new period', async () => {
    const org = await createOrg(t);
    const sub = await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, { productType: 'outreach', tier: 1 });
    const renewed = await admin(t, `/admin/v1/subscriptions/${sub.id}/renew`);
    expect(Date.parse(renewed.currentPeriodStart)).toBeGreaterThan(Date.parse(sub.currentPeriodStart));
    let rows = (await org.api.get('/api/v1/usage/history')).body.data;
    expect(rows.map((r: any) => [r.type, r.amountMins, r.balanceAfterMins])).toEqual([
      ['monthly_renewal', 100, 100],
      ['monthly_renewal', -100, 0],
      ['monthly_renewal', 100, 100],
    ]);
    const cancelled = await admin(t, `/admin/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false });
    expect(cancelled).toMatchObject({ status: 'canceled', canceledAt: expect.any(String) });
    rows = (await org.api.get('/api/v1/usage/history')).body.data;
    expect(rows[0]).toMatchObject({ type: 'admin_adjustment', amountMins: -100, balanceAfterMins: 0 });
    const again = await t.admin.post(`/admin/v1/subscriptions/${sub.id}/cancel`, {});
    expect(again.status).toBe(422);
  });
});
