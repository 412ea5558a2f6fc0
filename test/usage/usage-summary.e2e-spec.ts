import { randomUUID } from 'node:crypto';
import { SubscriptionLifecycleService } from '../../src/modules/usage/subscription-lifecycle.service';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { admin, billing } from './usage-support';

const DAY = 86_400_000;

describe('GET /api/v1/usage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const usage = async (api: { get: (p: string) => Promise<{ status: number; body: any }> }) => {
    const res = await api.get('/api/v1/usage');
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it('an organization with nothing: no plan, rolling 30-day window, outbound needs a plan', async () => {
    const org = await createOrg(t);
    const data = await usage(org.api);
    expect(data).toMatchObject({
      plan: null,
      balanceMins: 0,
      isLowBalance: false,
      period: { end: null, daysRemaining: null, source: 'rolling_30d' },
      currentPeriodUsage: {
        totalMins: 0,
        deductedMins: 0,
        totalCalls: 0,
        inbound: { calls: 0, mins: 0 },
        outbound: { calls: 0, mins: 0 },
        truncated: false,
      },
      trial: {
        isActive: false,
        hasEnded: false,
        expiredWithoutPlan: false,
        startedAt: null,
        endsAt: null,
        daysRemaining: null,
        grantedMins: 0,
      },
      subscriptions: [],
      outreach: null,
      outboundBlockedReason: 'OUTBOUND_PLAN_REQUIRED',
    });
    const start = Date.parse(data.period.start);
    expect(Math.abs(Date.now() - 30 * DAY - start)).toBeLessThan(60_000);
    expect(await billing(t).port.outboundBlockedReason(org.id)).toBe('OUTBOUND_PLAN_REQUIRED');
  });

  it('needs usage:read', async () => {
    const org = await createOrg(t);
    const other = await org.keyWith(['calls:read']);
    expect((await other.api.get('/api/v1/usage')).status).toBe(403);
    expect((await other.api.get('/api/v1/usage/history')).status).toBe(403);
  });

  it('trial: window as the period, trial flags, outreach null, trial minutes billed per started minute', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, {
      days: 14,
      mins: 50,
    });
    await billing(t).outbound(org.id, 150);
    const data = await usage(org.api);
    expect(data.plan).toMatchObject({
      isTrial: true,
      status: 'trialing',
      includedMins: 50,
      isComplimentary: false,
    });
    expect(data.period).toMatchObject({ source: 'trial', daysRemaining: 14 });
    expect(data.trial).toMatchObject({
      isActive: true,
      hasEnded: false,
      expiredWithoutPlan: false,
      grantedMins: 50,
      daysRemaining: 14,
    });
    expect(data.balanceMins).toBe(47);
    expect(data.outreach).toBeNull();
    expect(data.currentPeriodUsage).toMatchObject({
      totalMins: 2.5,
      deductedMins: 3,
      totalCalls: 1,
      outbound: { calls: 1, mins: 2.5 },
    });
    expect(data.outboundBlockedReason).toBeNull();
    expect(
      (
        await t.admin.post(`/admin/v1/organizations/${org.id}/trial`, {
          days: 3,
          mins: 5,
        })
      ).status,
    ).toBe(409);
  });

  it('subscribing converts the trial; the outreach breakdown covers tiers x quantity, usage and reservations', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, {
      days: 7,
      mins: 20,
    });
    const sub = await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 2,
      quantity: 2,
      enforced: true,
    });
    await admin(t, `/admin/v1/organizations/${org.id}/minute-grants`, {
      mins: 30,
      type: 'addon_purchase',
    });
    const b = billing(t);
    await b.outbound(org.id, 61);
    await b.reserve(org.id);
    const data = await usage(org.api);
    expect(data.plan).toMatchObject({
      id: 'outreach_tier2',
      productType: 'outreach',
      status: 'active',
      includedMins: 600,
      isTrial: false,
      cancelAtPeriodEnd: false,
      cancelAt: null,
    });
    expect(data.plan.features).toEqual({
      allowInbound: true,
      allowOutbound: true,
      allowMessaging: true,
    });
    expect(data.trial).toMatchObject({
      isActive: false,
      hasEnded: false,
      expiredWithoutPlan: false,
    });
    expect(data.period).toMatchObject({
      source: 'subscription',
      start: sub.currentPeriodStart,
      end: sub.currentPeriodEnd,
    });
    expect(data.period.daysRemaining).toBeGreaterThanOrEqual(28);
    expect(data.balanceMins).toBe(600 + 30 - 2);
    expect(data.outreach).toMatchObject({
      allowanceMins: 600,
      usedMins: 2,
      includedRemainingMins: 598,
      topUpRemainingMins: 30,
      reservedMins: 1,
      availableMins: 627,
      enforced: true,
      enforcementStartsAt: null,
    });
    expect(data.outreach.periods).toEqual([
      expect.objectContaining({
        subscriptionId: sub.id,
        planId: 'outreach_tier2',
        allowanceMins: 600,
        usedMins: 2,
        reservedMins: 1,
        periodStart: Date.parse(sub.currentPeriodStart),
      }),
    ]);
    expect(data.subscriptions).toEqual([
      expect.objectContaining({
        id: sub.id,
        planId: 'outreach_tier2',
        planName: 'Outreach Tier 2 x2',
        status: 'active',
        cancelAtPeriodEnd: false,
        cancelAt: null,
      }),
    ]);
    const history = await org.api.get('/api/v1/usage/history', {
      query: { type: 'trial_conversion' },
    });
    expect(history.body.data).toEqual([expect.objectContaining({ amountMins: -20, type: 'trial_conversion' })]);
  });

  it('receptionist inbound calls and complimentary calls count talk time without deducting', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
    });
    await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'receptionist',
    });
    const b = billing(t);
    await b.inbound(org.id, 90);
    await b.outbound(org.id, 30);
    const data = await usage(org.api);
    expect(data.currentPeriodUsage).toMatchObject({
      totalMins: 2,
      deductedMins: 1,
      totalCalls: 2,
      inbound: { calls: 1, mins: 1.5 },
      outbound: { calls: 1, mins: 0.5 },
    });
    const rows = (
      await org.api.get('/api/v1/usage/history', {
        query: { type: 'inbound_call' },
      })
    ).body.data;
    expect(rows[0]).toMatchObject({
      amountMins: 0,
      durationMins: 1.5,
      includedInPlan: true,
      productType: 'receptionist',
    });

    const comp = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${comp.id}/subscriptions`, {
      productType: 'outreach',
      complimentary: true,
    });
    const call = await b.outbound(comp.id, 200);
    expect(call.reserved).toEqual({ reserved: true });
    const compData = await usage(comp.api);
    expect(compData.plan).toMatchObject({
      isComplimentary: true,
      includedMins: 0,
    });
    expect(compData.outreach).toBeNull();
    expect(compData.outboundBlockedReason).toBeNull();
    expect(compData.currentPeriodUsage).toMatchObject({
      totalMins: 3.33,
      deductedMins: 0,
      totalCalls: 1,
    });
  });

  it('enforced and exhausted: 402 reason; not yet enforced: positive-balance rule', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
      enforced: true,
    });
    const b = billing(t);
    await b.outbound(org.id, 100 * 60);
    let data = await usage(org.api);
    expect(data.balanceMins).toBe(0);
    expect(data.outboundBlockedReason).toBe('OUTBOUND_MINUTES_EXHAUSTED');
    expect(data.isLowBalance).toBe(true);
    expect(await b.reserve(org.id)).toEqual({
      reserved: false,
      reason: 'OUTBOUND_MINUTES_EXHAUSTED',
    });
    // An active call past the allowance: excess recorded on the period, never a negative balance.
    await admin(t, `/admin/v1/organizations/${org.id}/minute-grants`, {
      mins: 1,
      type: 'coupon_redemption',
    });
    await b.outbound(org.id, 5 * 60);
    data = await usage(org.api);
    expect(data.balanceMins).toBe(0);
    expect(data.outreach.usedMins).toBe(100 + 4);

    const later = await createOrg(t);
    const startsAt = new Date(Date.now() + 7 * DAY).toISOString();
    await admin(t, `/admin/v1/organizations/${later.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
      enforced: true,
      enforcementStartsAt: startsAt,
    });
    await admin(t, `/admin/v1/organizations/${later.id}/minute-grants`, {
      mins: -99,
      type: 'admin_adjustment',
    });
    expect(await b.reserve(later.id)).toEqual({ reserved: true });
    data = await usage(later.api);
    expect(data.outreach).toMatchObject({
      enforced: false,
      enforcementStartsAt: Date.parse(startsAt),
      availableMins: 0,
      reservedMins: 1,
    });
    // Positive balance (1 minute, held by a call in flight) still accepts new calls; the dispatch reservation does not.
    expect(data.outboundBlockedReason).toBeNull();
    expect(await b.reserve(later.id)).toEqual({
      reserved: false,
      reason: 'OUTBOUND_MINUTES_EXHAUSTED',
    });
  });

  it('settlement is idempotent per call; an unanswered call releases its reservation', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, {
      days: 3,
      mins: 10,
    });
    const b = billing(t);
    const callId = randomUUID();
    await b.reserve(org.id, callId);
    await b.reserve(org.id, callId);
    const settle = () =>
      b.port.settleCall({
        organizationId: org.id,
        callId,
        direction: 'outbound',
        durationSeconds: 125,
        providerCallId: 'p-1',
      });
    await Promise.all([settle(), settle(), settle()]);
    const unanswered = await b.outbound(org.id, null);
    expect(unanswered.reserved).toEqual({ reserved: true });
    const rows = (await org.api.get('/api/v1/usage/history')).body.data;
    expect(rows.map((r: any) => [r.type, r.amountMins, r.balanceAfterMins])).toEqual([
      ['outbound_call', 0, 7],
      ['outbound_call', -3, 7],
      ['trial_activation', 10, 10],
    ]);
    const { rows: balance } = await t.db.query(
      'SELECT balance_mins, reserved_mins FROM usage_balances WHERE organization_id = $1',
      [org.id],
    );
    expect(balance[0]).toEqual({ balance_mins: 7, reserved_mins: 0 });
  });

  it('renewal: unspent included minutes expire, a new period starts; cancelled at period end, it ends', async () => {
    const org = await createOrg(t);
    const start = new Date(Date.now() - 31 * DAY);
    const sub = await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
      periodStart: start.toISOString(),
      periodEnd: new Date(Date.now() + 1500).toISOString(),
    });
    await billing(t).outbound(org.id, 600);
    // Shown as the subscription's period until it lapses; from then on never shown (a rolling window instead).
    let data = await waitUntil('the period to lapse', async () => {
      const shown = await usage(org.api);
      expect(['subscription', 'rolling_30d']).toContain(shown.period.source);
      return shown.period.source === 'rolling_30d' && shown;
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(sub.currentPeriodEnd));
    const lifecycle = t.app.get(SubscriptionLifecycleService);
    expect((await lifecycle.runDue()).renewed).toBeGreaterThanOrEqual(1);
    expect((await lifecycle.runDue()).renewed).toBe(0);
    data = await usage(org.api);
    expect(data.period).toMatchObject({
      source: 'subscription',
      start: sub.currentPeriodEnd,
    });
    expect(data.balanceMins).toBe(100);
    const renewals = (
      await org.api.get('/api/v1/usage/history', {
        query: { type: 'monthly_renewal' },
      })
    ).body.data;
    expect(renewals.map((r: any) => r.amountMins)).toEqual([100, -90, 100]);

    const cancelled = await admin(t, `/admin/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: true });
    expect(cancelled).toMatchObject({
      cancelAtPeriodEnd: true,
      status: 'active',
    });
    data = await usage(org.api);
    expect(data.plan).toMatchObject({
      cancelAtPeriodEnd: true,
      cancelAt: data.period.end,
    });
    const renewed = await admin(t, `/admin/v1/subscriptions/${sub.id}/renew`);
    expect(renewed.status).toBe('canceled');
    data = await usage(org.api);
    expect(data).toMatchObject({
      plan: null,
      balanceMins: 0,
      outboundBlockedReason: 'OUTBOUND_PLAN_REQUIRED',
    });
    expect(data.subscriptions[0]).toMatchObject({ status: 'canceled' });
    expect((await t.admin.post(`/admin/v1/subscriptions/${sub.id}/renew`)).status).toBe(422);
  });

  it('a late completion lands on its original allocation: the renewed period is untouched', async () => {
    const org = await createOrg(t);
    const sub = await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
      enforced: true,
    });
    const b = billing(t);
    const callId = randomUUID();
    expect(await b.reserve(org.id, callId)).toEqual({ reserved: true });
    await admin(t, `/admin/v1/subscriptions/${sub.id}/renew`);
    await b.port.settleCall({
      organizationId: org.id,
      callId,
      direction: 'outbound',
      durationSeconds: 170,
      providerCallId: 'late-1',
    });
    const rows = (await org.api.get('/api/v1/usage/history')).body.data;
    expect(rows.map((r: any) => [r.type, r.amountMins, r.balanceAfterMins])).toEqual([
      ['outbound_call', -1, 100],
      ['monthly_renewal', 100, 101],
      ['monthly_renewal', -99, 1],
      ['monthly_renewal', 100, 100],
    ]);
    expect(rows[0].description).toContain('2 beyond the allowance');
    const data = await usage(org.api);
    expect(data.balanceMins).toBe(100);
    expect(data.outreach).toMatchObject({
      usedMins: 0,
      includedRemainingMins: 100,
      reservedMins: 0,
      availableMins: 100,
    });
  });

  it('trial expiry: trial_expiration, hasEnded, expiredWithoutPlan', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, {
      days: 1,
      mins: 15,
      startedAt: new Date(Date.now() - DAY + 800).toISOString(),
    });
    // The lifecycle run that comes after the trial's end expires it (the runs before it leave the trial alone).
    const lifecycle = t.app.get(SubscriptionLifecycleService);
    await waitUntil('a lifecycle run to expire the trial', async () => (await lifecycle.runDue()).trialsExpired >= 1);
    const data = await usage(org.api);
    expect(data.trial).toMatchObject({
      isActive: false,
      hasEnded: true,
      expiredWithoutPlan: true,
      daysRemaining: 0,
      grantedMins: 15,
    });
    expect(data).toMatchObject({
      plan: null,
      balanceMins: 0,
      outboundBlockedReason: 'OUTBOUND_PLAN_REQUIRED',
    });
    expect(data.period.source).toBe('rolling_30d');
    const rows = (await org.api.get('/api/v1/usage/history')).body.data;
    expect(rows[0]).toMatchObject({
      type: 'trial_expiration',
      amountMins: -15,
      balanceAfterMins: 0,
    });
    await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
    });
    expect((await usage(org.api)).trial).toMatchObject({
      hasEnded: true,
      expiredWithoutPlan: false,
    });
  });

  it.each([
    [10_001, true],
    [10_000, false],
  ])(
    '%p billing rows over several days -> truncated %p; totals cover exactly the newest 10,000',
    async (count, truncated) => {
      const org = await createOrg(t);
      await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
        productType: 'outreach',
        tier: 1,
        periodStart: new Date(Date.now() - 4 * DAY).toISOString(),
      });
      // Fixture written directly (10,000 settlements through the port would take minutes): call rows n = 1 (newest)
      // .. count, 25 s apart so they span three UTC days, talk time n minutes, every third one inbound; plus the
      // daily rollups that settlement maintains alongside them.
      await t.db.query(
        `INSERT INTO minute_ledger (id, organization_id, type, amount_mins, balance_after_mins, duration_mins,
                                  included_in_plan, description, product_type, created_at)
       SELECT gen_random_uuid(), $1, CASE WHEN n % 3 = 0 THEN 'inbound_call' ELSE 'outbound_call' END, -1, 0, n,
              false, 'fixture', 'outreach', now() - interval '1 minute' - n * interval '25 seconds'
         FROM generate_series(1, $2::int) n`,
        [org.id, count],
      );
      await t.db.query(
        `INSERT INTO usage_daily_totals (organization_id, day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins)
       SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE type = 'inbound_call'),
              sum(duration_mins), coalesce(sum(duration_mins) FILTER (WHERE type = 'inbound_call'), 0), -sum(amount_mins)
         FROM minute_ledger WHERE organization_id = $1 AND description = 'fixture' GROUP BY 1, 2`,
        [org.id],
      );
      const data = await usage(org.api);
      // Newest 10,000: n = 1..10000; inbound n = 3, 6, .., 9999.
      expect(data.currentPeriodUsage).toEqual({
        truncated,
        totalCalls: 10_000,
        totalMins: 50_005_000,
        deductedMins: 10_000,
        inbound: { calls: 3333, mins: 16_668_333 },
        outbound: { calls: 6667, mins: 50_005_000 - 16_668_333 },
      });
    },
  );
});
