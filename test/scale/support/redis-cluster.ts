import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The cluster's client ports (TEST_REDIS_CLUSTER_PORT, 17000 by default, and the next two); each node's cluster
 * bus listens 10 above its client port, so the whole cluster stays within 20 ports of the first.
 */
const FIRST_PORT = Number(process.env.TEST_REDIS_CLUSTER_PORT ?? 17000);
const MASTERS = 3;
const BUS_OFFSET = 10;

export interface RedisClusterUnderTest {
  /** A node of the cluster, as REDIS_URL names it. */
  url: string;
  ports: number[];
  /** `INFO errorstats` of every node: error replies each one sent, by error code (`CROSSSLOT`, `MOVED`, ...). */
  errorCounts(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster: ${what} not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A Redis Cluster of three masters (no replicas) from the machine's own redis-server and redis-cli (Debian's
 * `redis` package): each node in a temporary directory, nothing persisted, started as a child of this process
 * and stopped by `stop()`. Resolves once every node reports `cluster_state:ok`, so every slot is served.
 */
export async function startRedisCluster(): Promise<RedisClusterUnderTest> {
  const ports = Array.from({ length: MASTERS }, (_, i) => FIRST_PORT + i);
  for (const port of ports) {
    const answered = await cli(port, 'PING').catch(() => '');
    if (answered.trim() === 'PONG') {
      throw new Error(`Port ${port} already serves a Redis; stop it or set TEST_REDIS_CLUSTER_PORT to a free range`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'vc-redis-cluster-'));
  const nodes: ChildProcess[] = ports.map((port) => {
    const nodeDir = join(dir, String(port));
    mkdirSync(nodeDir);
    // Without a listener, a failed spawn (redis-server missing) would be an uncaught error; the PING wait reports it.
    return spawn(
      'redis-server',
      [
        '--port', String(port),
        '--bind', '127.0.0.1',
        '--cluster-enabled', 'yes',
        '--cluster-port', String(port + BUS_OFFSET),
        '--cluster-config-file', 'nodes.conf',
        '--cluster-node-timeout', '5000',
        '--dir', nodeDir,
        '--save', '',
        '--appendonly', 'no',
        '--maxmemory-policy', 'noeviction',
      ],
      { stdio: 'ignore' },
    ).on('error', () => undefined);
  });
  const stop = async (): Promise<void> => {
    await Promise.all(
      nodes.map(
        (node) =>
          new Promise<void>((resolve) => {
            if (node.exitCode !== null || node.signalCode !== null) return resolve();
            node.once('exit', () => resolve());
            node.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await until(`node ${port} answering`, async () => (await cli(port, 'PING')).includes('PONG'));
    await run('redis-cli', [
      '--cluster', 'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas', '0',
      '--cluster-yes',
    ]);
    for (const port of ports) {
      await until(`cluster_state:ok on ${port}`, async () => (await cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${ports[0]}`,
    ports,
    async errorCounts() {
      const counts: Record<string, number> = {};
      for (const port of ports) {
        for (const [, code, count] of (await cli(port, 'INFO', 'errorstats')).matchAll(/errorstat_(\w+):count=(\d+)/g)) {
          counts[code] = (counts[code] ?? 0) + Number(count);
        }
      }
      return counts;
    },
    stop,
  };
}
