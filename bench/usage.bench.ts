/**
 * GET /api/v1/usage for an organization with 20,000 ledger rows. Target: p95 <= 50 ms.
 * Boots the real app (test harness: own database cloned from a freshly migrated template, real Redis), gives the
 * organization an enforced tier-3 plan with top-ups, and writes 20,000 call rows into the current period as a
 * fixture (settling them one by one through the API would take minutes and measure nothing of interest here).
 */
import { measureGets, percentile } from './get-latency';
import { createOrg } from '../test/support/factory';
import globalSetup from '../test/support/global-setup';
import { startTestApp } from '../test/support/test-app';

const ROWS = 20_000;
const REQUESTS = 1_000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const DAY = 86_400_000;

async function main() {
  await globalSetup();
  const t = await startTestApp();
  try {
    const org = await createOrg(t);
    const post = async (path: string, body: unknown) => {
      const res = await t.admin.post(path, body);
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    };
    await post(`/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'outreach',
      tier: 3,
      quantity: 2,
      enforced: true,
      periodStart: new Date(Date.now() - 20 * DAY).toISOString(),
    });
    await post(`/admin/v1/organizations/${org.id}/minute-grants`, { mins: 50_000, type: 'addon_purchase' });
    // Fixture: 20,000 settled calls spread over the period, chained balances; grants, balance and the daily
    // rollups kept consistent with them, as settlement would leave them.
    const { rows } = await t.db.query(`SELECT balance_mins FROM usage_balances WHERE organization_id = $1`, [org.id]);
    const start = Number(rows[0].balance_mins);
    await t.db.query(
      `INSERT INTO minute_ledger (id, organization_id, type, amount_mins, balance_after_mins, duration_mins,
                                  included_in_plan, description, product_type, provider_call_id, call_id, created_at)
       SELECT gen_random_uuid(), $1, CASE WHEN n % 4 = 0 THEN 'inbound_call' ELSE 'outbound_call' END, -1, $2 - n,
              0.75, false, 'Outbound call, 1 started minute(s)', 'outreach', 'bench-' || n, gen_random_uuid(),
              now() - interval '19 days' + (n * interval '80 ms')
         FROM generate_series(1, $3) n`,
      [org.id, start, ROWS],
    );
    await t.db.query(`UPDATE usage_balances SET balance_mins = balance_mins - $2 WHERE organization_id = $1`, [
      org.id,
      ROWS,
    ]);
    await t.db.query(
      `UPDATE minute_grants SET remaining_mins = remaining_mins - $2, used_mins = used_mins + $2
        WHERE organization_id = $1 AND kind = 'topup'`,
      [org.id, ROWS],
    );
    await t.db.query(
      `INSERT INTO usage_daily_totals (organization_id, day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins)
       SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE type = 'inbound_call'),
              sum(duration_mins), coalesce(sum(duration_mins) FILTER (WHERE type = 'inbound_call'), 0), -sum(amount_mins)
         FROM minute_ledger WHERE organization_id = $1 AND type IN ('inbound_call', 'outbound_call') GROUP BY 1, 2`,
      [org.id],
    );
    await t.db.query('ANALYZE minute_ledger');

    const first = await org.api.get('/api/v1/usage');
    if (first.status !== 200) throw new Error(`GET /usage: ${first.status}`);
    for (let i = 0; i < 50; i++) await org.api.get('/api/v1/usage'); // warm-up

    console.log(`ledger rows: ${ROWS + 2}, requests: ${REQUESTS} per route, concurrency: ${CONCURRENCY}`);
    console.log(`summary: ${JSON.stringify(first.body.data.currentPeriodUsage)}`);
    // The trivial GET /organization on the same app shows what the machine and HTTP stack cost by themselves.
    await measureGets(org.api, '/api/v1/organization', REQUESTS, CONCURRENCY);
    const p95 = percentile(await measureGets(org.api, '/api/v1/usage', REQUESTS, CONCURRENCY), 95);
    console.log(`target p95 <= 50 ms: ${p95 <= 50 ? 'met' : 'NOT met'}`);
  } finally {
    await t.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
