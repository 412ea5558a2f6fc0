/*
 * Ours against a baseline (issue "Prove it"): autocannon, 32 connections, BENCH_DURATION (10) seconds per run,
 * against the real app (src/main.ts, api role, in its own process) and bench/baseline-server.ts (node:http + pg,
 * the same SQL and key check, in its own process), both on one database created like the test harness does:
 *   GET /api/v1/calls?limit=25 with 100,000 calls in the organization,
 *   POST /api/v1/contacts (a new phone each request),
 *   POST /api/v1/calls (a live call from the organization's number, with a trial's minutes, to a new destination
 *   each request, scheduled a month ahead: created, its outbox event and its delayed dispatch job written, never
 *   dialled during the run; the baseline's twin runs the same statements, see baseline-server.ts),
 *   GET /api/v1/contacts/search?q=... over 100,000 contacts (or BENCH_ORGS organizations of BENCH_CONTACTS each).
 * Fixtures are bench-only INSERT ... SELECT generate_series straight into the database (the API would take
 * minutes). Targets: the performance targets (TARGETS below). Each row also reports CPU milliseconds per request of the server
 * and of its PostgreSQL backends (less sensitive to a busy machine than req/s), and the run ends with our
 * process's resident memory.
 * Run: `npm run bench compare`. Knobs: BENCH_ROUTES (comma-separated, e.g. "POST /contacts"), BENCH_CPU_PROFILE_DIR
 * (our server writes a CPU profile there on exit), BENCH_DURATION, BENCH_CONNECTIONS, BENCH_CALLS, BENCH_CONTACTS,
 * BENCH_ORGS, BENCH_ROLES, BENCH_COMPILED, BENCH_SERVER_NODE_FLAGS, BENCH_SERVER_ENV, BENCH_IDLE_SECONDS (idle
 * seconds before the start-up and after-run memory readings), BENCH_WARMUP (seconds of unmeasured load on each
 * server before its run, 2: V8 is still compiling their hot paths long after that, BENCHMARKS.md). `npm run bench
 * search-1m` is the 1,000,000 contacts over 100 organizations preset, `create-contact` and `create-call` one write
 * route each (scripts/run-bench.js lists the presets).
 */
import autocannon from 'autocannon';
import { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { TEST_REDIS_URL, createTestDatabase } from '../test/support/databases';
import globalSetup from '../test/support/global-setup';
import { HttpClient } from '../test/support/http';
import { CpuMeter, memoryOf } from './cpu-meter';
import { seedCalls, seedContacts } from './seed';
import { freePort, loadavg, startProcess as start, waitUp } from './server-process';

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
/** Contacts in the benchmarked organization; with BENCH_ORGS > 1 as many again in each other organization. */
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
/** `BENCH_ORGS=100 BENCH_CONTACTS=10000`: 1,000,000 contacts over 100 organizations, searched in one of them. */
const ORGS = Number(process.env.BENCH_ORGS ?? 1);
/** Our server's roles (`api,worker` measures the memory of a process that also relays the writes' events). */
const OUR_ROLES = process.env.BENCH_ROLES ?? 'api';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Seconds our server stays idle after the run before its memory is read again (0: not read again). */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUTES = ['GET /calls', 'POST /contacts', 'POST /calls', 'GET /contacts/search'].filter(
  (r) => !process.env.BENCH_ROUTES || process.env.BENCH_ROUTES.split(',').includes(r),
);
/** When set, our server writes a V8 CPU profile there on exit (open it in Chrome DevTools). */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const ADMIN_TOKEN = 'bench-admin-token';
const QUERIES = ['ali', 'smith', 'garcia', 'mar', 'alice smith', '4155', 'jo', 'alicee'];

/** The performance targets (same-run figures of ours `a` and the baseline `b`). */
const TARGETS: Record<string, (a: Figures, b: Figures) => boolean> = {
  'GET /calls': (a, b) => a.rps >= 0.9 * b.rps,
  'POST /contacts': (a, b) => a.rps >= 0.8 * b.rps && a.p99 <= 1.5 * b.p99,
  'POST /calls': (a, b) => a.rps >= 0.9 * b.rps,
  'GET /contacts/search': (a) => a.rps >= 400 && a.p99 <= 150,
};

interface Figures {
  rps: number;
  /** CPU milliseconds per request: the server process, and the PostgreSQL backends of the run's database. */
  nodeMs: number;
  pgMs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** A call scheduled this far ahead is created (and its dispatch job delayed) but never dialled during the run. */
const CALL_SCHEDULED_AT = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();

async function run(
  target: { url: string; pid: number; meter: CpuMeter },
  key: string,
  route: string,
  tag: string,
  seconds = DURATION,
  callFrom = '',
): Promise<Figures> {
  let n = 0;
  const request: autocannon.Request =
    route === 'POST /calls'
      ? {
          method: 'POST',
          path: '/api/v1/calls',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          // A live call from the organization's number to a new destination per request, scheduled a month ahead.
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              to: `+1${tag}${String(n++).padStart(7, '0')}`,
              from: callFrom,
              scheduledAt: CALL_SCHEDULED_AT,
            }),
          }),
        }
      : route === 'POST /contacts'
        ? {
            method: 'POST',
            path: '/api/v1/contacts',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            // A new phone per request, distinct per server and run, so every insert is a real 201. The title is
            // distinct per run too: a name new to the organization adds a `contact_names` row and its trigram
            // entries (a trigger), a name seen before adds nothing, so titles repeated across runs let the run
            // after ours (the twin's) reuse the names ours added and do less work per contact.
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ title: `Bench ${tag}-${n}`, phone: `+1${tag}${String(n++).padStart(7, '0')}` }),
            }),
          }
        : route === 'GET /calls'
          ? { method: 'GET', path: '/api/v1/calls?limit=25', headers: { 'x-api-key': key } }
          : {
              method: 'GET',
              headers: { 'x-api-key': key },
              setupRequest: (req) => ({
                ...req,
                path: `/api/v1/contacts/search?q=${encodeURIComponent(QUERIES[n++ % QUERIES.length])}`,
              }),
            };
  const spent = await target.meter.start([target.pid]);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [request],
  });
  const cpu = await spent();
  const answered = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    nodeMs: cpu.nodeMs / answered,
    pgMs: cpu.postgresMs / answered,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function seed(databaseUrl: string, orgId: string): Promise<void> {
  const db = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    if (ROUTES.includes('GET /calls')) await seedCalls(db, orgId, CALLS);
    // The benchmarked organization first, then the others.
    await seedContacts(db, [orgId, ...Array.from({ length: ORGS - 1 }, () => randomUUID())], CONTACTS);
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  await globalSetup();
  const database = await createTestDatabase();
  const children: ChildProcess[] = [];
  try {
    const appPort = await freePort();
    children.push(
      start(
        'src/main.ts',
        {
          NODE_ENV: 'test',
          DATABASE_URL: database.url,
          REDIS_URL: TEST_REDIS_URL,
          QUEUE_PREFIX: `b${randomBytes(5).toString('hex')}`,
          ADMIN_TOKEN,
          // HTTP only, as an API node behind a load balancer; workers would run elsewhere.
          ROLES: OUR_ROLES,
          // The per-key rate limit is not what is measured (the baseline has none).
          RATE_LIMIT_PER_MINUTE: '100000000',
          MIGRATE_ON_START: 'false',
          LOG_LEVEL: 'silent',
          PORT: String(appPort),
          HOST: '127.0.0.1',
        },
        CPU_PROFILE_DIR,
      ),
    );
    const oursUrl = `http://127.0.0.1:${appPort}`;
    await waitUp(`${oursUrl}/health`);
    // What start-up alone leaves resident (modules, metadata, pools opened), before any load grows the heap.
    if (IDLE_SECONDS > 0) {
      await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      console.log(`ours (${OUR_ROLES}) ${IDLE_SECONDS} s idle after start: ${memoryOf(children[0].pid)}`);
    }
    const admin = new HttpClient(oursUrl, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const org = await admin.post('/admin/v1/organizations', { name: 'Bench', profile: true });
    const keyRes = await admin.post(`/admin/v1/organizations/${org.body.data.id}/api-keys`, {
      scopes: ['*'],
      name: 'bench',
    });
    const key: string = keyRes.body.data.key;
    // POST /calls: the caller ID the calls are placed from and the trial's minutes a live call needs.
    const callFrom = '+14155550100';
    if (ROUTES.includes('POST /calls')) {
      const orgPath = `/admin/v1/organizations/${org.body.data.id}`;
      const number = await admin.post(`${orgPath}/phone-numbers`, { number: callFrom, label: 'Bench' });
      const trial = await admin.post(`${orgPath}/trial`, { days: 365, mins: 100_000 });
      if (number.status !== 201 || trial.status > 201) throw new Error(`calling setup: ${number.text} ${trial.text}`);
    }
    const started = Date.now();
    await seed(database.url, org.body.data.id);
    console.log(
      `seeded ${ROUTES.includes('GET /calls') ? CALLS : 0} calls and ${CONTACTS} contacts in each of ${ORGS} organization(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const baselineProcess = start('bench/baseline-server.ts', {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `b${randomBytes(5).toString('hex')}`,
      PORT: '0',
    });
    children.push(baselineProcess);
    const baselinePort = await new Promise<number>((resolve) =>
      baselineProcess.once('message', (m: { port: number }) => resolve(m.port)),
    );
    const meter = new CpuMeter(database.url);
    const ours = { url: oursUrl, pid: children[0].pid ?? 0, meter };
    const baseline = { url: `http://127.0.0.1:${baselinePort}`, pid: baselineProcess.pid ?? 0, meter };

    console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per run; load before: ${loadavg()}`);
    const rows: string[] = [];
    let tag = 200;
    for (const route of ROUTES) {
      // Warm-up of both (JIT, pool connections, plan cache), not measured.
      await run(ours, key, route, String(tag++), WARMUP, callFrom);
      await run(baseline, key, route, String(tag++), WARMUP, callFrom);
      const a = await run(ours, key, route, String(tag++), DURATION, callFrom);
      const b = await run(baseline, key, route, String(tag++), DURATION, callFrom);
      const ratio = a.rps / b.rps;
      const met = TARGETS[route](a, b);
      rows.push(
        `| ${route} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${ratio.toFixed(2)} | ${a.p50} / ${a.p99} | ${b.p50} / ${b.p99} | ${(a.p99 / Math.max(b.p99, 1)).toFixed(2)} | ${a.non2xx + a.errors} / ${b.non2xx + b.errors} | ${cpuCell(a)} | ${cpuCell(b)} | ${met ? 'met' : 'NOT met'} |`,
      );
      console.log(rows[rows.length - 1]);
    }
    console.log(`load after: ${loadavg()}`);
    // Our server after the whole run (ROLES=${OUR_ROLES}): the process's resident memory, target <= 300 MB.
    console.log(
      `ours (${OUR_ROLES}) after the run: ${memoryOf(children[0].pid)}; baseline: ${memoryOf(baselineProcess.pid)}`,
    );
    // The heap a load grew is V8's to keep or return (a heap snapshot taken under POST /contacts load held ~70 MB
    // live in a 385 MB process); the second reading says whether an idle process gives it back.
    if (IDLE_SECONDS > 0) {
      await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      console.log(`ours (${OUR_ROLES}) after ${IDLE_SECONDS} s idle: ${memoryOf(children[0].pid)}`);
    }
    console.log(
      '\n| route | ours req/s | baseline req/s | ratio | ours p50/p99 ms | baseline p50/p99 ms | p99 ratio | non-2xx+errors ours/baseline | ours CPU ms/req node + pg | baseline CPU ms/req node + pg | target |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    await meter.end();
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await database.drop();
  }
}

function cpuCell(f: Figures): string {
  return `${f.nodeMs.toFixed(2)} + ${f.pgMs.toFixed(2)}`;
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
