/*
 * A medium or end-to-end worker whose event loop stops turning is reported and ended, so the run fails naming the
 * file instead of waiting forever (jest.config.js, setupFiles). The per-test and per-hook limits
 * (test-timeouts.js) are timers: they cannot fire while the worker's thread is held by synchronous work (a
 * spawnSync that never returns, a loop that never yields, a deadlock in native code), and such a worker would hold
 * the whole run until CI's own limit. A watchdog thread (event-loop-watchdog-thread.js), which runs whatever the
 * worker's thread does, sees the heartbeat stop and ends the worker; Jest then fails the file ("Worker exited
 * unexpectedly") and the run goes on. A harness limit, never an assertion.
 *
 * The limit is far above any legitimate synchronous step (a first `npm run build` under ensureBuilt, on a busy
 * machine, takes a few minutes); TEST_STALL_LIMIT_MS overrides it.
 */
const { join } = require('node:path');
const { Worker } = require('node:worker_threads');

const STALL_LIMIT_MS = Number(process.env.TEST_STALL_LIMIT_MS) || 10 * 60_000;
const HEARTBEAT_MS = 1_000;

const heartbeat = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT));
heartbeat[0] = Date.now();
setInterval(() => {
  heartbeat[0] = Date.now();
}, HEARTBEAT_MS).unref();

const watchdog = new Worker(join(__dirname, 'event-loop-watchdog-thread.js'), {
  workerData: { heartbeat, limit: STALL_LIMIT_MS },
  // Piped streams are served by the worker's own thread, the one that is stuck: the watchdog writes to fd 2.
  stdout: true,
  stderr: true,
});
watchdog.unref();

/** Tells the watchdog what the worker runs now (a test or hook of a file), for its message. */
function running(what) {
  watchdog.postMessage(what);
}

module.exports = { running };
