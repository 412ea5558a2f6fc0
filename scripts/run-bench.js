#!/usr/bin/env node
/*
 * `npm run bench [name...]`: runs bench/*.bench.ts one after another (each starts what it needs on this machine
 * and prints its figures). Benchmarks are measurements, never assertions in the test suite.
 */
const { spawnSync } = require('node:child_process');
const { readdirSync } = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..', 'bench');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !wanted.length || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(dir, file)], {
    stdio: 'inherit',
    env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, '..', 'tsconfig.spec.json') },
  });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
