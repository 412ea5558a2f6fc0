/*
 * The whole system at once, serving a mixed workload for BENCH_DURATION (60) seconds. BENCH_TOPOLOGY picks the
 * processes: `one` (default), one server process with every role (api, worker, scheduler) as `npm run demo` and a
 * small deployment run it; `split`, an api,scheduler process and a worker process beside it
 * (docs/operations.md, "Roles and scaling out"; `npm run bench system-split`). The workload:
 *   reads   GET /calls?limit=25, GET /contacts?limit=25, GET /contacts/search (over BENCH_CONTACTS seeded rows),
 *   writes  POST /contacts (each one a contact.created event),
 *   calls   POST /calls at BENCH_CALL_RATE per second, placed and completed through the simulator,
 *   webhooks every event above delivered to BENCH_ENDPOINTS local endpoints (a keep-alive receiver here).
 * Reports throughput and p50/p99 per route, calls dispatched and ended, webhook deliveries per second with
 * event-to-delivery latency and where it went (outbox to queue, queue to fan-out, fan-out to the receiver's first
 * attempt), deferrals per delivery, the CPU of each server process and of their PostgreSQL backends, and the
 * servers' memory. Run: `npm run bench system`. It is a measurement, never an assertion. BENCH_CPU_PROFILE_DIR: the
 * (first) server process writes a V8 CPU profile there on exit.
 */
import autocannon from 'autocannon';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { webhookId } from '../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { callingOrg } from '../test/calls/call-fixtures';
import { createTestDatabase } from '../test/support/databases';
import globalSetup from '../test/support/global-setup';
import { CpuMeter, cpuMsOf, memoryOf } from './cpu-meter';
import { deliveryOutcomes } from './delivery-outcomes';
import { seedCalls, seedContacts } from './seed';
import { freePort, loadavg, startOurServer, startOurWorker } from './server-process';

const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const CALL_RATE = Number(process.env.BENCH_CALL_RATE ?? 10);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 20_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 2);
const TOPOLOGY = process.env.BENCH_TOPOLOGY === 'split' ? 'split' : 'one';
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const QUERIES = ['ali', 'smith', 'garcia', 'mar', 'alice smith', '4155', 'jo', 'alicee'];

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/** When an attempt reached the receiver, and when its event occurred (the body's `timestamp`). */
interface Arrival {
  at: number;
  occurredAt: number;
}

/**
 * A keep-alive receiver that answers 200 at once and notes every attempt's arrival, and each delivery's first
 * (by `X-Webhook-Id`, one per event and endpoint).
 */
async function startReceiver(): Promise<{
  url: string;
  latencies: number[];
  first: Map<string, Arrival>;
  close: () => void;
}> {
  const latencies: number[] = [];
  const first = new Map<string, Arrival>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      const occurredAt = Date.parse(timestamp);
      latencies.push(at - occurredAt);
      const id = String(req.headers['x-webhook-id']);
      if (!first.has(id)) first.set(id, { at, occurredAt });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    latencies,
    first,
    close: () => server.close(),
  };
}

/**
 * Each delivery's first attempt, from its event (occurred) and from its fan-out (the outbox row's `processed_at`,
 * when its delivery jobs were created): the wait a receiver sees, and the part of it the delivery queue and its
 * attempts add.
 */
async function firstAttempts(
  db: Pool,
  since: Date,
  endpointIds: string[],
  first: Map<string, Arrival>,
): Promise<{ fromEvent: number[]; fromFanout: number[] }> {
  const { rows } = await db.query<{ event_id: string; processed_at: Date }>(
    `SELECT event_id, processed_at FROM outbox_events WHERE occurred_at >= $1 AND processed_at IS NOT NULL`,
    [since],
  );
  const fromEvent: number[] = [];
  const fromFanout: number[] = [];
  for (const row of rows)
    for (const endpointId of endpointIds) {
      const arrival = first.get(webhookId(row.event_id, endpointId));
      if (!arrival) continue;
      fromEvent.push(arrival.at - arrival.occurredAt);
      fromFanout.push(arrival.at - row.processed_at.getTime());
    }
  const sorted = (a: number[]) => a.sort((x, y) => x - y);
  return { fromEvent: sorted(fromEvent), fromFanout: sorted(fromFanout) };
}

/** The workload: one autocannon instance per route, all at once, for the same `seconds`. */
function routes(key: string, from: string): Array<{ name: string; options: Partial<autocannon.Options> }> {
  let n = 0;
  const json = { 'x-api-key': key, 'content-type': 'application/json' };
  return [
    {
      name: 'GET /calls?limit=25',
      options: { connections: 6, requests: [{ method: 'GET', path: '/api/v1/calls?limit=25' }] },
    },
    {
      name: 'GET /contacts?limit=25',
      options: { connections: 4, requests: [{ method: 'GET', path: '/api/v1/contacts?limit=25' }] },
    },
    {
      name: 'GET /contacts/search',
      options: {
        connections: 4,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({
              ...req,
              path: `/api/v1/contacts/search?q=${encodeURIComponent(QUERIES[n++ % QUERIES.length])}`,
            }),
          },
        ],
      },
    },
    {
      name: 'POST /contacts',
      options: {
        connections: 6,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/contacts',
            headers: json,
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ title: `System ${n}`, phone: `+1628${String(2_000_000 + n++).padStart(7, '0')}` }),
            }),
          },
        ],
      },
    },
    {
      name: 'POST /calls',
      options: {
        connections: 2,
        overallRate: CALL_RATE,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/calls',
            headers: json,
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ to: `+1415${String(2_000_000 + n++).padStart(7, '0')}`, from }),
            }),
          },
        ],
      },
    },
  ];
}

/** The delivering process's delivery outcomes, as one line. */
async function outcomesLine(metricsUrl: string): Promise<string> {
  const { counts, deferralsPerDelivery } = await deliveryOutcomes(metricsUrl);
  const entries = Object.entries(counts);
  if (!entries.length) return 'none counted';
  return `${entries.map(([outcome, n]) => `${outcome} ${n}`).join(', ')} (${deferralsPerDelivery.toFixed(2)} deferrals per delivery)`;
}

async function main(): Promise<void> {
  await globalSetup();
  const database = await createTestDatabase();
  const receiver = await startReceiver();
  let server: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  const db = new Pool({ connectionString: database.url, max: 2 });
  try {
    const env = {
      WEBHOOK_ALLOW_INSECURE: 'true',
      SIMULATOR_RING_MS: '200',
      SIMULATOR_CALL_MS: '2000',
      QUEUE_PREFIX: `b${randomBytes(5).toString('hex')}`,
    };
    const serverMetricsPort = await freePort();
    const ours = await startOurServer(
      database.url,
      {
        ...env,
        METRICS_PORT: String(serverMetricsPort),
        ...(TOPOLOGY === 'split' ? { ROLES: 'api,scheduler' } : {}),
      },
      CPU_PROFILE_DIR,
    );
    server = ours.server;
    // The process that delivers webhooks: its counters say which share deferred attempts.
    let deliveryMetricsUrl = `http://127.0.0.1:${serverMetricsPort}/metrics`;
    if (TOPOLOGY === 'split') ({ worker, metricsUrl: deliveryMetricsUrl } = await startOurWorker(database.url, env));
    const { baseUrl, admin } = ours;
    const org = await callingOrg({ admin, baseUrl }, 100_000);
    // Admission control is not what is measured: every call placed may run at once.
    await admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: 1000 });
    const endpointIds: string[] = [];
    for (let e = 0; e < ENDPOINTS; e++) {
      const res = await org.api.post('/api/v1/webhooks', {
        url: receiver.url,
        events: ['contact.created', 'call.started', 'call.ended', 'call.failed'],
      });
      if (res.status !== 201) throw new Error(`webhook endpoint: ${res.status} ${res.text}`);
      endpointIds.push((res.body as { data: { id: string } }).data.id);
    }
    await seedContacts(db, [org.id], CONTACTS);
    await seedCalls(db, org.id, CONTACTS);

    const meter = new CpuMeter(database.url);
    const benchCpu = process.cpuUsage();
    const pids = [server.pid ?? 0, ...(worker ? [worker.pid ?? 0] : [])];
    const cpuBefore = pids.map((pid) => cpuMsOf(pid) ?? 0);
    const spent = await meter.start(pids);
    const startedAt = new Date();
    console.log(
      `system (${TOPOLOGY === 'split' ? 'api,scheduler + worker processes' : 'one process, every role'}): ` +
        `${DURATION} s, ${CALL_RATE} calls/s, ${ENDPOINTS} endpoints, ${CONTACTS} contacts; load before: ${loadavg()}`,
    );
    const workload = routes(org.key, org.from);
    const results = await Promise.all(
      workload.map((r) =>
        autocannon({ url: baseUrl, duration: DURATION, headers: { 'x-api-key': org.key }, ...r.options }),
      ),
    );
    const cpu = await spent();
    const cpuOf = pids.map((pid, i) => ((cpuMsOf(pid) ?? 0) - cpuBefore[i]) / 1000);
    const benchMs = (process.cpuUsage(benchCpu).user + process.cpuUsage(benchCpu).system) / 1000;
    // Calls and webhooks still in flight when the load stops are counted up to this instant, not waited for.
    const { rows } = await db.query<{ placed: number; dispatched: number; ended: number }>(
      `SELECT count(*)::int AS placed, count(dispatched_at)::int AS dispatched,
              count(*) FILTER (WHERE status IN ('ended', 'failed'))::int AS ended
         FROM calls WHERE created_at >= $1`,
      [startedAt],
    );
    // Where an event's time went, for the events of the run that got that far: outbox row to the queue (the
    // relay), queue to fan-out (delivery jobs created); the rest, to the receiver, is the delivery queue's wait.
    const { rows: stages } = await db.query<{ stage: string; events: number; p50: number; p99: number }>(
      `SELECT stage, count(*)::int AS events,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int AS p50,
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms))::int AS p99
         FROM (SELECT 'event to relayed' AS stage, extract(epoch FROM relayed_at - occurred_at) * 1000 AS ms
                 FROM outbox_events WHERE occurred_at >= $1 AND relayed_at IS NOT NULL
               UNION ALL
               SELECT 'relayed to fanned out', extract(epoch FROM processed_at - relayed_at) * 1000
                 FROM outbox_events WHERE occurred_at >= $1 AND processed_at IS NOT NULL) s
        GROUP BY stage ORDER BY stage DESC`,
      [startedAt],
    );
    const requests = results.reduce((total, r) => total + r.requests.total, 0);
    console.log(`load after: ${loadavg()}\n`);
    console.log('| route | req/s | p50 ms | p99 ms | non-2xx + errors |');
    console.log('|---|---|---|---|---|');
    for (const [i, r] of results.entries())
      console.log(
        `| ${workload[i].name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors + r.timeouts} |`,
      );
    const latencies = [...receiver.latencies].sort((a, b) => a - b);
    console.log(
      `\nall routes: ${(requests / DURATION).toFixed(0)} req/s; calls placed ${rows[0].placed}, dispatched ${rows[0].dispatched}, ` +
        `ended or failed ${rows[0].ended}; webhooks delivered ${latencies.length} (${(latencies.length / DURATION).toFixed(0)}/s), ` +
        `event to delivery p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
    );
    for (const st of stages) console.log(`${st.stage}: ${st.events} events, p50 ${st.p50} ms, p99 ${st.p99} ms`);
    const { fromEvent, fromFanout } = await firstAttempts(db, startedAt, endpointIds, receiver.first);
    console.log(
      `first attempts: ${fromEvent.length} (${(fromEvent.length / DURATION).toFixed(0)}/s); ` +
        `event to first attempt p50 ${percentile(fromEvent, 50)} ms, p99 ${percentile(fromEvent, 99)} ms; ` +
        `fan-out to first attempt p50 ${percentile(fromFanout, 50)} ms, p99 ${percentile(fromFanout, 99)} ms`,
    );
    console.log(`delivery attempts by outcome: ${await outcomesLine(deliveryMetricsUrl)}`);
    if (worker)
      console.log(
        `CPU by process: api,scheduler ${cpuOf[0].toFixed(1)} s, worker ${cpuOf[1].toFixed(1)} s ` +
          `(worker ${((cpuOf[1] * 1000) / Math.max(1, latencies.length)).toFixed(2)} ms per webhook delivered, ` +
          `dispatch and voice events included)`,
      );
    console.log(
      `CPU over the run: server ${(cpu.nodeMs / 1000).toFixed(1)} s, PostgreSQL ${(cpu.postgresMs / 1000).toFixed(1)} s, ` +
        `load generator and receiver ${(benchMs / 1000).toFixed(1)} s (of ${2 * DURATION} s on 2 cores); ` +
        `per request: server ${(cpu.nodeMs / requests).toFixed(2)} ms + PostgreSQL ${(cpu.postgresMs / requests).toFixed(2)} ms`,
    );
    console.log(`server after the run: ${memoryOf(server.pid)}${worker ? `; worker ${memoryOf(worker.pid)}` : ''}`);
    await meter.end();
  } finally {
    server?.kill('SIGTERM');
    worker?.kill('SIGTERM');
    receiver.close();
    await db.end();
    await new Promise((r) => setTimeout(r, 1500));
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
