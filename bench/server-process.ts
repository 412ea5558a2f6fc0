/*
 * The server under measurement in a process of its own (as production runs it), so the CPU and memory the
 * benches report are the server's alone, not the load generator's.
 */
import { ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { AddressInfo, createServer } from 'node:net';
import { loadavg as osLoadavg } from 'node:os';
import { join } from 'node:path';
import { TEST_REDIS_URL } from '../test/support/databases';
import { HttpClient } from '../test/support/http';

const ROOT = join(__dirname, '..');

/**
 * Our server runs from `dist/` (built by `npm run bench` first), as production does: without ts-node's compiler
 * and its source-map hook in the process, which add memory and CPU production does not pay. BENCH_COMPILED=0
 * runs it from the sources instead (no build; quicker while iterating, figures not comparable).
 */
const COMPILED = process.env.BENCH_COMPILED !== '0';
/**
 * Node flags for our server alone, not the baseline or the load generator (e.g. `--max-old-space-size=256
 * --max-semi-space-size=16`, the `memory-bounded` preset): how heap limits trade memory for CPU.
 */
const SERVER_NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/**
 * Environment for our server alone, as `NAME=value` pairs separated by spaces (e.g. the C allocator's settings the
 * image sets, `GLIBC_TUNABLES=...`): what the process environment changes without touching the baseline.
 */
const SERVER_ENV: Record<string, string> = Object.fromEntries(
  (process.env.BENCH_SERVER_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Forks `script` (relative to the repository) with `env`; with `profileDir`, it writes a V8 CPU profile on exit. */
export function startProcess(script: string, env: Record<string, string>, profileDir?: string): ChildProcess {
  const ours = script.startsWith('src/');
  const compiled = COMPILED && ours;
  return fork(join(ROOT, compiled ? script.replace(/^src\/(.*)\.ts$/, 'dist/$1.js') : script), [], {
    execArgv: [
      ...(compiled ? [] : ['-r', 'ts-node/register/transpile-only']),
      ...(ours ? SERVER_NODE_FLAGS : []),
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ],
    env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.spec.json'), ...(ours ? SERVER_ENV : {}), ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

export async function waitUp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function loadavg(): string {
  return osLoadavg()
    .map((n: number) => n.toFixed(2))
    .join(' ');
}

/**
 * Our server (src/main.ts) as the whole-process benches run it: every role unless `env` says otherwise, the
 * per-key rate limit out of the way (it is not what is measured), logs off, on a free local port, its own queue
 * prefix (`env.QUEUE_PREFIX` when the bench reads the queues itself). Resolves once it answers, with an admin
 * client; a server that never comes up is stopped.
 */
export async function startOurServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  profileDir?: string,
): Promise<{ server: ChildProcess; baseUrl: string; admin: HttpClient }> {
  const port = await freePort();
  const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
  const server = startProcess(
    'src/main.ts',
    {
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `b${randomBytes(5).toString('hex')}`,
      ADMIN_TOKEN: adminToken,
      ROLES: 'api,worker,scheduler',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    profileDir,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUp(`${baseUrl}/health`);
  } catch (error) {
    server.kill('SIGTERM');
    throw error;
  }
  return { server, baseUrl, admin: new HttpClient(baseUrl, { authorization: `Bearer ${adminToken}` }) };
}

/**
 * A worker-only process (ROLES=worker) beside a server started by startOurServer: `env` must carry the same
 * QUEUE_PREFIX. It serves no API; it is up once its metrics endpoint answers (every process has one).
 */
export async function startOurWorker(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ worker: ChildProcess; metricsUrl: string }> {
  const metricsPort = await freePort();
  const worker = startProcess('src/main.ts', {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    ROLES: 'worker',
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'silent',
    METRICS_PORT: String(metricsPort),
    HOST: '127.0.0.1',
    ...env,
  });
  try {
    await waitUp(`http://127.0.0.1:${metricsPort}/metrics`);
  } catch (error) {
    worker.kill('SIGTERM');
    throw error;
  }
  return { worker, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}
