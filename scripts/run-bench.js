#!/usr/bin/env node
/*
 * `npm run bench [name...]`: runs bench/*.bench.ts one after another (each starts what it needs on this machine
 * and prints its figures). Benchmarks are measurements, never assertions in the test suite.
 */
const { spawnSync } = require('node:child_process');
const { readdirSync } = require('node:fs');
const { loadavg } = require('node:os');
const path = require('node:path');

const dir = path.join(__dirname, '..', 'bench');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !wanted.length || wanted.some((w) => f.includes(w)))
  .sort();
// Each bench leaves the machine busy for a while (autocannon, PostgreSQL autovacuum, the load average): a pause
// between benches keeps one from measuring the previous one's aftermath.
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 20);
let failed = 0;
for (const [i, file] of files.entries()) {
  if (i > 0 && settleSeconds > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, settleSeconds * 1000);
  console.log(
    `\n=== ${file} (load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(dir, file)], {
    stdio: 'inherit',
    env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, '..', 'tsconfig.spec.json') },
  });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
