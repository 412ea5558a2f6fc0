/*
 * Dispatch benchmark: pickup latency from POST /calls to `processing` at a steady
 * BENCH_RATE (20) calls/s, and sustained dispatches per second when a burst of BENCH_BURST (1000) calls of one
 * organization falls due at once. One server process with every role (api, worker, scheduler), as a small
 * deployment runs it, on the local PostgreSQL and Redis, the simulator as voice platform.
 * Besides the wall-clock figures (noisy on a shared machine), the burst reports the CPU milliseconds per call of
 * the server process and of its PostgreSQL backends, from due until every call is `processing` and until every
 * call has ended. BENCH_CPU_PROFILE_DIR: the server writes a V8 CPU profile there on exit.
 * Targets: p99 pickup < 1 s; >= 500 dispatches/s.
 */
import { ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import { callingOrg } from '../test/calls/call-fixtures';
import { createTestDatabase } from '../test/support/databases';
import globalSetup from '../test/support/global-setup';
import { CpuMeter, CpuSplit } from './cpu-meter';
import { loadavg, startOurServer } from './server-process';

const RATE = Number(process.env.BENCH_RATE ?? 20);
const LATENCY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 1000);
/** Requests in flight while the burst is created. */
const CREATE_CONCURRENCY = 16;
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
/**
 * The simulator's ring time: with the default, calls dispatched early in the burst ring, talk and end while the
 * rest are being dispatched (as in production); a ring longer than the dispatch (e.g. 30000) measures dispatch alone.
 */
const RING_MS = process.env.BENCH_RING_MS ?? '200';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main(): Promise<void> {
  await globalSetup();
  const database = await createTestDatabase();
  const db = new Pool({ connectionString: database.url, max: 2 });
  let server: ChildProcess | undefined;
  try {
    const ours = await startOurServer(
      database.url,
      { SIMULATOR_RING_MS: RING_MS, SIMULATOR_CALL_MS: '2000' },
      CPU_PROFILE_DIR,
    );
    server = ours.server;
    const { baseUrl, admin } = ours;
    const org = await callingOrg({ admin, baseUrl }, 100_000);
    // Measures dispatch itself, not admission control: the organization may run the whole burst at once.
    await admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: BURST });
    const to = (i: number) => `+1415555${String(i % 1000).padStart(3, '0')}${i % 7}`;
    const post = async (body: Record<string, unknown>): Promise<string> => {
      const res = await org.api.post('/api/v1/calls', body);
      if (res.status !== 201) throw new Error(`POST /calls: ${res.status} ${res.text}`);
      return res.body.data.id;
    };
    console.log(`simulator ring ${RING_MS} ms, call 2000 ms; load before: ${loadavg()}`);

    // 1. Pickup latency at a steady rate.
    const posted = new Map<string, number>();
    const total = RATE * LATENCY_SECONDS;
    const started = Date.now();
    const requests: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      await sleep(Math.max(0, started + (i * 1000) / RATE - Date.now()));
      const sentAt = Date.now();
      requests.push(post({ to: to(i), from: org.from }).then((id) => void posted.set(id, sentAt)));
    }
    await Promise.all(requests);
    await waitFor(db, [...posted.keys()], 'dispatched_at IS NOT NULL');
    const { rows } = await db.query('SELECT id, dispatched_at FROM calls WHERE id = ANY($1)', [[...posted.keys()]]);
    const latencies = rows.map((r) => new Date(r.dispatched_at).getTime() - posted.get(r.id)!).sort((a, b) => a - b);
    console.log(
      `pickup latency at ${RATE} calls/s (${total} calls): p50 ${percentile(latencies, 50)} ms, ` +
        `p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
    );
    await waitFor(db, [...posted.keys()], `status IN ('ended', 'error')`);

    // 2. Sustained dispatch rate: a burst of calls all due at the same instant. Creation must be over well
    // before that instant (else the figure measures creation): a fixed number of requests in flight, and a due
    // time with room for a machine several times slower than an idle one.
    const dueAt = Date.now() + 10_000 + BURST * 25;
    const ids: string[] = [];
    const createStart = Date.now();
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (ids.length < BURST) {
          if (Date.now() >= dueAt - 1000) throw new Error('creating the burst took too long; lower BENCH_BURST');
          const i = ids.push('') - 1;
          ids[i] = await post({ to: to(i), from: org.from, scheduledAt: new Date(dueAt).toISOString() });
        }
      }),
    );
    const margin = dueAt - Date.now();
    console.log(
      `burst of ${BURST} created in ${Date.now() - createStart} ms (${CREATE_CONCURRENCY} in flight), ${margin} ms before due`,
    );
    if (margin < 1000) throw new Error('creating the burst took too long; lower BENCH_BURST');
    // Counted from just before due: what runs meanwhile is the idle server (sweeper ticks, relays).
    await sleep(margin - 500);
    const meter = new CpuMeter(database.url);
    const spent = await meter.start([server.pid ?? 0]);
    await waitFor(db, ids, 'dispatched_at IS NOT NULL', dueAt - Date.now() + 120_000);
    const toProcessing = await spent();
    await waitFor(db, ids, `status IN ('ended', 'error')`, 120_000);
    const toEnded = await spent();
    await meter.end();
    const span = await db.query(
      `SELECT extract(epoch FROM max(dispatched_at)) * 1000 - $2 AS after_due_ms,
              count(*) FILTER (WHERE status = 'ended')::int AS ended
         FROM calls WHERE id = ANY($1)`,
      [ids, dueAt],
    );
    const afterDue = Number(span.rows[0].after_due_ms);
    console.log(
      `sustained dispatch: ${BURST} calls due at once, all processing ${Math.round(afterDue)} ms after due ` +
        `=> ${Math.round((BURST * 1000) / Math.max(afterDue, 1))} dispatches/s; ${span.rows[0].ended} ended`,
    );
    console.log(
      `CPU ms per call, server + PostgreSQL: due to processing ${perCall(toProcessing)}; due to ended ${perCall(toEnded)}`,
    );
    console.log(`load after: ${loadavg()}`);
  } finally {
    server?.kill('SIGTERM');
    await db.end();
    // The server shuts down gracefully (and writes its CPU profile) before its database goes.
    await new Promise((r) => (server && server.exitCode === null ? server.once('exit', r) : r(undefined)));
    await database.drop();
  }
}

function perCall(cpu: CpuSplit): string {
  return `${(cpu.nodeMs / BURST).toFixed(2)} + ${(cpu.postgresMs / BURST).toFixed(2)}`;
}

async function waitFor(db: Pool, ids: string[], condition: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM calls WHERE id = ANY($1) AND ${condition}`, [ids]);
    if (rows[0].n === ids.length) return;
    await sleep(100);
  }
  throw new Error(`calls not all ${condition} in time`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
