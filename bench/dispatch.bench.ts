/*
 * Dispatch benchmark (issue "Calls"): pickup latency from POST /calls to `processing` at a steady 20 calls/s,
 * and sustained dispatches per second when a burst of calls falls due at once. One app instance (api, worker
 * and scheduler roles) on the local PostgreSQL and Redis, the simulator as voice platform.
 * Targets: p99 pickup < 1 s; >= 100 dispatches/s.
 */
import globalSetup from '../test/support/global-setup';
import { startTestApp } from '../test/support/test-app';
import { callingOrg } from '../test/calls/call-fixtures';

const RATE = Number(process.env.BENCH_RATE ?? 20);
const LATENCY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 1000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main(): Promise<void> {
  await globalSetup();
  const t = await startTestApp({ env: { SIMULATOR_RING_MS: '200', SIMULATOR_CALL_MS: '2000' } });
  try {
    const org = await callingOrg(t, 100_000);
    // Measures dispatch itself, not admission control: the organization may run the whole burst at once.
    await t.admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: 1000 });
    const to = (i: number) => `+1415555${String(i % 1000).padStart(3, '0')}${i % 7}`;

    // 1. Pickup latency at a steady rate.
    const posted = new Map<string, number>();
    const total = RATE * LATENCY_SECONDS;
    const started = Date.now();
    const requests: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      await sleep(Math.max(0, started + (i * 1000) / RATE - Date.now()));
      const sentAt = Date.now();
      requests.push(
        org.api.post('/api/v1/calls', { to: to(i), from: org.from }).then((res) => {
          if (res.status !== 201) throw new Error(`POST /calls: ${res.status} ${res.text}`);
          posted.set(res.body.data.id, sentAt);
        }),
      );
    }
    await Promise.all(requests);
    await waitDispatched(t.db, [...posted.keys()]);
    const { rows } = await t.db.query('SELECT id, dispatched_at FROM calls WHERE id = ANY($1)', [[...posted.keys()]]);
    const latencies = rows.map((r) => new Date(r.dispatched_at).getTime() - posted.get(r.id)!).sort((a, b) => a - b);
    console.log(
      `pickup latency at ${RATE} calls/s (${total} calls): p50 ${percentile(latencies, 50)} ms, ` +
        `p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
    );

    // 2. Sustained dispatch rate: a burst of calls all due at the same instant.
    const dueAt = Date.now() + 15_000 + BURST * 10;
    const ids: string[] = [];
    for (let i = 0; i < BURST; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, BURST - i) }, (_, k) =>
          org.api.post('/api/v1/calls', { to: to(i + k), from: org.from, scheduledAt: new Date(dueAt).toISOString() }),
        ),
      );
      for (const res of batch) {
        if (res.status !== 201) throw new Error(`POST /calls: ${res.status} ${res.text}`);
        ids.push(res.body.data.id);
      }
    }
    if (Date.now() >= dueAt - 1000) throw new Error('creating the burst took too long; lower BENCH_BURST');
    await waitDispatched(t.db, ids, dueAt - Date.now() + 120_000);
    const span = await t.db.query(
      `SELECT extract(epoch FROM max(dispatched_at) - min(dispatched_at)) * 1000 AS span_ms,
              extract(epoch FROM max(dispatched_at)) * 1000 - $2 AS after_due_ms
         FROM calls WHERE id = ANY($1)`,
      [ids, dueAt],
    );
    const afterDue = Number(span.rows[0].after_due_ms);
    console.log(
      `sustained dispatch: ${BURST} calls due at once, all processing ${Math.round(afterDue)} ms after due ` +
        `=> ${Math.round((BURST * 1000) / Math.max(afterDue, 1))} dispatches/s`,
    );
  } finally {
    await t.close();
  }
}

async function waitDispatched(db: import('pg').Pool, ids: string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM calls WHERE id = ANY($1) AND dispatched_at IS NOT NULL',
      [ids],
    );
    if (rows[0].n === ids.length) return;
    await sleep(100);
  }
  throw new Error('calls were not dispatched in time');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
