#!/usr/bin/env node
/*
 * `npm run bench [name...]`: runs bench/*.bench.ts one after another (each starts what it needs on this machine
 * and prints its figures). A name is a preset below or a fragment of a file name. Benchmarks are measurements,
 * never assertions in the test suite.
 */
const { spawnSync } = require('node:child_process');
const { readdirSync } = require('node:fs');
const { loadavg } = require('node:os');
const path = require('node:path');

/** Named runs of one bench with its knobs set (the performance table, one command per row). */
const PRESETS = {
  'search-100k': { file: 'compare.bench.ts', env: { BENCH_ROUTES: 'GET /contacts/search' } },
  'search-1m': {
    file: 'compare.bench.ts',
    env: { BENCH_ROUTES: 'GET /contacts/search', BENCH_ORGS: '100', BENCH_CONTACTS: '10000' },
  },
  calls: { file: 'compare.bench.ts', env: { BENCH_ROUTES: 'GET /calls' } },
  'create-contact': { file: 'compare.bench.ts', env: { BENCH_ROUTES: 'POST /contacts' } },
  'create-call': { file: 'compare.bench.ts', env: { BENCH_ROUTES: 'POST /calls' } },
  // The mixed workload on an api,scheduler process and a worker process instead of one process with every role.
  'system-split': { file: 'system.bench.ts', env: { BENCH_TOPOLOGY: 'split' } },
  // The memory of an api+worker process after the compare run, as production runs it (compiled, Node's defaults).
  memory: { file: 'compare.bench.ts', env: { BENCH_ROLES: 'api,worker' } },
  // The same with V8's heap bounded (docs/operations.md, "Sizing a process"): memory traded for CPU per request.
  'memory-bounded': {
    file: 'compare.bench.ts',
    env: { BENCH_ROLES: 'api,worker', BENCH_SERVER_NODE_FLAGS: '--max-old-space-size=256 --max-semi-space-size=16' },
  },
};

const dir = path.join(__dirname, '..', 'bench');
const wanted = process.argv.slice(2);
const runs = [
  ...wanted.filter((w) => PRESETS[w]).map((w) => ({ file: PRESETS[w].file, env: PRESETS[w].env, name: w })),
  ...readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => !wanted.length || wanted.some((w) => !PRESETS[w] && f.includes(w)))
    .sort()
    .map((file) => ({ file, env: {}, name: file })),
];
// Each bench leaves the machine busy for a while (autocannon, PostgreSQL autovacuum, the load average): a pause
// between benches keeps one from measuring the previous one's aftermath.
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 20);
// The benches run our server compiled, as production does (bench/server-process.ts): build it once, first.
if (process.env.BENCH_COMPILED !== '0') {
  console.log('=== npm run build');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
let failed = 0;
for (const [i, { file, env, name }] of runs.entries()) {
  if (i > 0 && settleSeconds > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, settleSeconds * 1000);
  console.log(
    `\n=== ${name} ${JSON.stringify(env)} (load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(dir, file)], {
    stdio: 'inherit',
    env: { ...process.env, ...env, TS_NODE_PROJECT: path.join(__dirname, '..', 'tsconfig.spec.json') },
  });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
