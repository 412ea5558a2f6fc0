#!/usr/bin/env node
/* `npm run demo`: build when dist/ is missing or older than the sources, then start the demo. */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'cli', 'demo.js');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = statSync(full);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(full) : stat.mtimeMs);
  }
  return newest;
}

if (!existsSync(entry) || statSync(entry).mtimeMs < newestMtime(path.join(root, 'src'))) {
  console.log('Building (first run or sources changed)...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [entry], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
