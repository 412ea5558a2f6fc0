/*
 * The event-loop watchdog's thread (event-loop-watchdog.js): reads the worker's heartbeat; once it is older than the
 * limit, writes what the worker was running, the processes it started and, where gdb is installed, the native stack
 * of its stuck thread (waiting on a child, on a lock, or running code) straight to fd 2, then kills the worker.
 */
const { spawnSync } = require('node:child_process');
const { writeSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');

const { heartbeat, limit } = workerData;
let doing = 'loading a test file';
parentPort.on('message', (what) => {
  doing = what;
});

function printed(command, args) {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  return run.stdout || `(${command}: ${run.error?.message ?? 'printed nothing'})\n`;
}

/** The lines of `ps` output for `pid` and the processes under it. */
function descendants(ps, pid) {
  const [header, ...lines] = ps.split('\n');
  const ours = new Set([pid]);
  const kept = lines.filter((line) => {
    const [own, parent] = line.trim().split(/\s+/);
    if (!ours.has(parent) && !ours.has(own)) return false;
    ours.add(own);
    return true;
  });
  return [header, ...kept, ''].join('\n');
}

const timer = setInterval(
  () => {
    const stalled = Date.now() - heartbeat[0];
    if (stalled < limit) return;
    clearInterval(timer);
    const pid = String(process.pid);
    writeSync(
      2,
      `\nevent-loop watchdog: the test worker (pid ${pid}) has not turned its event loop for ` +
        `${Math.round(stalled / 1000)} s, while ${doing}. Its processes and its stuck thread's stack follow; ` +
        'it is then killed.\n',
    );
    writeSync(2, descendants(printed('ps', ['-eo', 'pid,ppid,stat,etime,pcpu,args', '--forest']), pid));
    // Straight to fd 2: while gdb holds the worker stopped, this thread cannot read a pipe gdb would write to.
    spawnSync(
      'gdb',
      ['-q', '-nx', '-batch', '-iex', 'set print thread-events off', '-p', pid, '-ex', 'thread 1', '-ex', 'bt 30'],
      {
        stdio: ['ignore', 2, 2],
        timeout: 60_000,
      },
    );
    process.kill(process.pid, 'SIGKILL');
  },
  Math.min(5_000, limit / 4),
);
