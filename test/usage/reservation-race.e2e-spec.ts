import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallBilling } from '../../src/modules/usage/call-billing.port';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { admin } from './usage-support';
import { inTransaction } from '../../src/infra/database/tx';

describe('reservation race (real database, real concurrency)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('200 dispatch reservations, 40 concurrent batches of 5, against 10 available minutes: exactly 10 succeed', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
      enforced: true,
    });
    await admin(t, `/admin/v1/organizations/${org.id}/minute-grants`, { mins: -90, type: 'admin_adjustment' });
    const billing = t.app.get(CallBilling);
    const dataSource = t.app.get(DataSource);
    const batches = await Promise.all(
      Array.from({ length: 40 }, () => {
        const callIds = Array.from({ length: 5 }, () => randomUUID());
        return inTransaction(dataSource, (m) => billing.reserveForDispatch(m, org.id, callIds));
      }),
    );
    const results = batches.flatMap((outcomes) => [...outcomes.values()]);
    expect(results).toHaveLength(200);
    const reserved = results.filter((r) => r.reserved);
    expect(reserved).toHaveLength(10);
    expect(results.filter((r) => !r.reserved && r.reason === 'OUTBOUND_MINUTES_EXHAUSTED')).toHaveLength(190);

    const { rows } = await t.db.query(
      `SELECT b.balance_mins, b.reserved_mins,
              (SELECT count(*)::int FROM call_reservations WHERE organization_id = $1) AS reservations,
              (SELECT sum(reserved_mins)::int FROM minute_grants WHERE organization_id = $1) AS held,
              (SELECT min(remaining_mins - reserved_mins)::int FROM minute_grants WHERE organization_id = $1) AS min_free
         FROM usage_balances b WHERE b.organization_id = $1`,
      [org.id],
    );
    expect(rows[0]).toEqual({ balance_mins: 10, reserved_mins: 10, reservations: 10, held: 10, min_free: 0 });
    const usage = (await org.api.get('/api/v1/usage')).body.data;
    expect(usage.outreach).toMatchObject({ reservedMins: 10, availableMins: 0 });
    expect(usage.outboundBlockedReason).toBe('OUTBOUND_MINUTES_EXHAUSTED');
  });

  it('a batch gives its minutes to the calls in order, and is idempotent per call', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, { days: 5, mins: 3 });
    const billing = t.app.get(CallBilling);
    const dataSource = t.app.get(DataSource);
    const first = randomUUID();
    await inTransaction(dataSource, (m) => billing.reserveForDispatch(m, org.id, [first]));
    const later = Array.from({ length: 4 }, () => randomUUID());
    const outcomes = await inTransaction(dataSource, (m) => billing.reserveForDispatch(m, org.id, [first, ...later]));
    expect([first, ...later].map((id) => outcomes.get(id))).toEqual([
      { reserved: true },
      { reserved: true },
      { reserved: true },
      { reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' },
      { reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' },
    ]);
    const { rows } = await t.db.query(
      `SELECT (SELECT count(*)::int FROM call_reservations WHERE organization_id = $1) AS reservations,
              (SELECT reserved_mins FROM usage_balances WHERE organization_id = $1) AS reserved`,
      [org.id],
    );
    expect(rows[0]).toEqual({ reservations: 3, reserved: 3 });
  });

  it('concurrent settlements of the same call write one ledger row', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, { days: 5, mins: 10 });
    const billing = t.app.get(CallBilling);
    const callId = randomUUID();
    await inTransaction(t.app.get(DataSource), (m) => billing.reserveForDispatch(m, org.id, [callId]));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        billing.settleCall({
          organizationId: org.id,
          callId,
          direction: 'outbound',
          durationSeconds: 61,
          providerCallId: 'x',
        }),
      ),
    );
    const { rows } = await t.db.query(`SELECT amount_mins FROM minute_ledger WHERE call_id = $1`, [callId]);
    expect(rows).toEqual([{ amount_mins: -2 }]);
  });

  it('concurrent settlements of the same inbound call (never reserved) write one ledger row', async () => {
    const org = await createOrg(t);
    await admin(t, `/admin/v1/organizations/${org.id}/trial`, { days: 5, mins: 10 });
    const billing = t.app.get(CallBilling);
    const callId = randomUUID();
    const settle = () =>
      billing.settleCall({
        organizationId: org.id,
        callId,
        direction: 'inbound',
        durationSeconds: 90,
        providerCallId: 'in-x',
      });
    await Promise.all(Array.from({ length: 20 }, settle));
    const { rows } = await t.db.query(`SELECT type, amount_mins FROM minute_ledger WHERE call_id = $1`, [callId]);
    expect(rows).toEqual([{ type: 'inbound_call', amount_mins: -2 }]);
    const balance = await t.db.query(`SELECT balance_mins FROM usage_balances WHERE organization_id = $1`, [org.id]);
    expect(balance.rows[0].balance_mins).toBe(8);
  });
});
