/**
 * GET /api/v1/phone-numbers/{id}/health for a number with 1,000,000 calls. Target: p99 <= 50 ms.
 * Boots the real app (test harness: own database cloned from a freshly migrated template, real Redis) and writes,
 * as a fixture, 1,000,000 ended outbound calls from one number spread over the last 90 days, with the day rows
 * and recent-call row that counting each call's end leaves, written by the backfill migration (placing them through
 * the API would take hours and measure nothing of interest here). The endpoint reads the day rows, never the calls.
 */
import { performance } from 'node:perf_hooks';
import type { QueryRunner } from 'typeorm';
import { NumberHealthBackfill1795740000001 } from '../src/infra/database/migrations/1795740000001-NumberHealthBackfill';
import { measureGets, percentile } from './get-latency';
import { createOrg } from '../test/support/factory';
import globalSetup from '../test/support/global-setup';
import { startTestApp } from '../test/support/test-app';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const REQUESTS = 1_000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const NUMBER = '+14155550142';

async function main() {
  await globalSetup();
  const t = await startTestApp();
  try {
    const org = await createOrg(t);
    const created = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: NUMBER });
    if (created.status !== 201) throw new Error(`phone number: ${created.status} ${created.text}`);
    const numberId: string = created.body.data.id;

    const loadStarted = performance.now();
    // Outcomes by n: 40 % a person, 25 % voicemail, 30 % nobody, 5 % failed.
    await t.db.query(
      `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, answered_by, duration_seconds,
                          ended_reason, created_at, updated_at, ended_at, livemode)
       SELECT gen_random_uuid(), $1, CASE WHEN n % 20 = 19 THEN 'error' ELSE 'ended' END, 'outbound', $2,
              '+1415555' || lpad((n % 10000)::text, 4, '0'),
              CASE WHEN n % 20 < 8 THEN 'human' WHEN n % 20 < 13 THEN 'voicemail' END,
              CASE WHEN n % 20 < 8 THEN 60 WHEN n % 20 < 13 THEN 15 ELSE 0 END,
              CASE WHEN n % 20 = 19 THEN 'pipeline-error' ELSE 'customer-ended-call' END,
              at, at, at, true
         FROM generate_series(1, $3) n, LATERAL (SELECT now() - interval '90 days' * (1 - n::double precision / $3) AS at) x`,
      [org.id, NUMBER, CALLS],
    );
    // The figures counting each call's end leaves: what the backfill migration writes for calls already there.
    await new NumberHealthBackfill1795740000001().up({ query: (sql: string) => t.db.query(sql) } as QueryRunner);
    await t.db.query('ANALYZE calls');
    await t.db.query('ANALYZE number_days');
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    const path = `/api/v1/phone-numbers/${numberId}/health?days=90`;
    const first = await org.api.get(path);
    if (first.status !== 200) throw new Error(`GET health: ${first.status} ${first.text}`);
    const counted = first.body.data.days.reduce((sum: number, d: { placed: number }) => sum + d.placed, 0);
    for (let i = 0; i < 50; i++) await org.api.get(path); // warm-up

    console.log(
      `calls: ${CALLS} (fixture written in ${loadSeconds.toFixed(0)} s), days listed: ${first.body.data.days.length}, ` +
        `calls in them: ${counted}, status: ${first.body.data.status}; requests: ${REQUESTS} per route, concurrency: ${CONCURRENCY}`,
    );
    // The trivial GET /organization on the same app shows what the machine and HTTP stack cost by themselves.
    await measureGets(org.api, '/api/v1/organization', REQUESTS, CONCURRENCY);
    const p99 = percentile(await measureGets(org.api, path, REQUESTS, CONCURRENCY), 99);
    console.log(`target p99 <= 50 ms: ${p99 <= 50 ? 'met' : 'NOT met'}`);
  } finally {
    await t.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
