import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { admin, billing } from './usage-support';

describe('GET /api/v1/usage/history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('newest first, every field, providerCallId equal to the billed call', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, { productType: 'outreach', tier: 1 });
    const call = await billing(t).outbound(org.id, 95, 'vapi-call-123');
    const res = await org.api.get('/api/v1/usage/history');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ cursor: null, hasMore: false, pageSize: 25 });
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        type: 'outbound_call',
        amountMins: -2,
        balanceAfterMins: 98,
        durationMins: 1.58,
        includedInPlan: false,
        description: expect.stringContaining('2 started minute'),
        productType: 'outreach',
        providerCallId: call.providerCallId,
        createdAt: expect.any(String),
      },
      expect.objectContaining({
        type: 'monthly_renewal',
        amountMins: 100,
        balanceAfterMins: 100,
        durationMins: null,
        providerCallId: null,
      }),
    ]);
  });

  it('pages with the cursor; type, from and to filter; a cursor from another filter set is INVALID_CURSOR', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, { days: 30, mins: 100 });
    const b = billing(t);
    for (let i = 0; i < 7; i++) await b.outbound(org.id, 30);
    const mid = new Date().toISOString();
    // Whatever is recorded next must be later than `mid` (millisecond precision): wait until the clock is past it.
    await waitUntil('the clock to pass mid', () => new Date().toISOString() > mid, 5000, 1);
    for (let i = 0; i < 3; i++) {
      await admin(t, `/admin/v1/organizations/${org.id}/minute-grants`, { mins: 5, type: 'addon_purchase' });
    }

    const seen: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await org.api.get('/api/v1/usage/history', { query: { limit: 4, cursor } });
      expect(page.status).toBe(200);
      expect(page.body.pagination.pageSize).toBe(4);
      seen.push(...page.body.data);
      cursor = page.body.pagination.cursor ?? undefined;
      expect(page.body.pagination.hasMore).toBe(!!cursor);
    } while (cursor);
    expect(seen).toHaveLength(11);
    expect(new Set(seen.map((r) => r.id)).size).toBe(11);
    // Newest first, and each row's balance follows from the one before it.
    const chronological = [...seen].reverse();
    chronological.forEach((row, i) => {
      const before = i === 0 ? 0 : chronological[i - 1].balanceAfterMins;
      expect(row.balanceAfterMins).toBe(before + row.amountMins);
    });
    expect(seen[0]).toMatchObject({ type: 'addon_purchase', balanceAfterMins: 108 });

    const calls = await org.api.get('/api/v1/usage/history', { query: { type: 'outbound_call', limit: 5 } });
    expect(calls.body.data).toHaveLength(5);
    expect(calls.body.data.every((r: any) => r.type === 'outbound_call')).toBe(true);
    const rest = await org.api.get('/api/v1/usage/history', {
      query: { type: 'outbound_call', limit: 5, cursor: calls.body.pagination.cursor },
    });
    expect(rest.body.data).toHaveLength(2);
    expect(rest.body.pagination).toMatchObject({ hasMore: false, cursor: null });

    const after = await org.api.get('/api/v1/usage/history', { query: { from: mid } });
    expect(after.body.data.map((r: any) => r.type)).toEqual(['addon_purchase', 'addon_purchase', 'addon_purchase']);
    const before = await org.api.get('/api/v1/usage/history', { query: { to: mid } });
    expect(before.body.data).toHaveLength(8);

    for (const query of [
      { type: 'addon_purchase', cursor: calls.body.pagination.cursor },
      { cursor: calls.body.pagination.cursor },
      { type: 'outbound_call', from: mid, cursor: calls.body.pagination.cursor },
      { cursor: 'not-a-cursor' },
    ]) {
      const res = await org.api.get('/api/v1/usage/history', { query });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_CURSOR');
    }
  });

  it.each([
    [{ type: 'refund' }, 'type'],
    [{ from: 'yesterday' }, 'from'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
  ])('rejects %p with 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const org = await createOrg(t);
    const res = await org.api.get('/api/v1/usage/history', { query: query as Record<string, string> });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
  });

  it("never shows another organization's rows", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${a.id}/minute-grants`, { mins: 9, type: 'coupon_redemption' });
    expect((await b.api.get('/api/v1/usage/history')).body.data).toEqual([]);
    expect((await b.api.get('/api/v1/usage')).body.data.balanceMins).toBe(0);
  });
});
