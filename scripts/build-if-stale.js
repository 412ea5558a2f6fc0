#!/usr/bin/env node
/*
 * Builds (`npm run build`) when dist/ is missing or older than the sources: the server (src) or the console
 * (console/src). Used by `npm run demo` and by tests that start dist/main.js, so a checkout that is already
 * built (as CI builds before the tests) is never rebuilt while other tests read dist/.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, rmSync, statSync } = require('node:fs');
const path = require('node:path');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = statSync(full);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(full) : stat.mtimeMs);
  }
  return newest;
}

// Test files that start the built service run side by side, and `nest build` empties dist/ first: one builds
// while the others wait, then find dist/ fresh. A lock older than any build (a killed run) is taken over.
const LOCK_STALE_MS = 15 * 60_000;
const LOCK_POLL_MS = 250;

function withBuildLock(root, run) {
  const lock = path.join(root, '.build-lock');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, LOCK_POLL_MS);
    }
  }
  try {
    return run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Returns the build's exit status (0 when nothing needed building). */
function buildIfStale(root, log = console.log) {
  return withBuildLock(root, () => build(root, log));
}

function build(root, log) {
  const stale = (file, dir) => !existsSync(file) || statSync(file).mtimeMs < newestMtime(path.join(root, dir));
  const server = path.join(root, 'dist', 'cli', 'demo.js');
  const consolePage = path.join(root, 'dist', 'console', 'index.html');
  if (!stale(server, 'src') && !stale(consolePage, 'console/src')) return 0;
  // The two steps of `npm run build`, each announced: a first build takes a while and is otherwise silent.
  const steps = [
    ['the server (nest build)', ['exec', '--', 'nest', 'build']],
    ['the console (vite build)', ['run', '--silent', 'console:build']],
  ];
  log('Building (first run or sources changed):');
  const started = Date.now();
  for (const [index, [what, args]] of steps.entries()) {
    log(`  [${index + 1}/${steps.length}] ${what}...`);
    const status = spawnSync('npm', args, { cwd: root, stdio: 'inherit' }).status ?? 1;
    if (status !== 0) return status;
  }
  log(`  built in ${Math.round((Date.now() - started) / 1000)} s`);
  return 0;
}

module.exports = { buildIfStale };

if (require.main === module) process.exit(buildIfStale(path.join(__dirname, '..')));
