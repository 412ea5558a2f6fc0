import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { AddressInfo, Socket, connect, createServer } from 'node:net';
import { Client } from 'pg';
import { TEST_REDIS_URL, createTestDatabase } from '../support/databases';
import { createOrg } from '../support/factory';
import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp } from '../support/test-app';
import { freePort } from '../support/free-port';
import { ROOT, ensureBuilt } from '../support/built-service';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * Builds dist/ when it is older than the sources (a rebuild empties dist/, which other test files read meanwhile)
 * and starts `node dist/main.js` in production mode on its own database and queue prefix; its output is collected.
 */
function startProduction(
  databaseUrl: string,
  port: number,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  ensureBuilt();
  let output = '';
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}`,
      // base64url: a hexadecimal secret can hold fewer than the 16 different characters production requires.
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ADMIN_TOKEN,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

/**
 * The production entry point (`node dist/main.js`, built here) as a real child process with every role, so the
 * signal handling under test is exactly what runs in a container. A request is held in flight by a row lock the
 * test takes on the contact it updates (no test-only route in the app): SIGTERM arrives while it waits.
 */
describe('graceful shutdown (SIGTERM)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let child: ChildProcess;
  let output: () => string;
  let baseUrl: string;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    ({ child, output } = startProduction(database.url, port, {}));
    exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
    // A readiness wait, not a timing claim: start-up (Nest, every role, the queues) takes seconds on a quiet
    // machine and over 20 s on a loaded 2-core one.
    await until(
      'the app to answer /health/live',
      async () => ((await fetch(`${baseUrl}/health/live`)).ok ? true : undefined),
      90_000,
    );
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database?.drop();
  });

  it('finishes the request in flight, refuses new connections, closes everything and exits 0', async () => {
    const admin = new HttpClient(baseUrl, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const org = await createOrg({ admin, baseUrl } as TestApp);
    const created = await org.api.post('/api/v1/contacts', { title: 'Before', phone: '+14155550100' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;

    const locker = new Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM contacts WHERE id = $1 FOR UPDATE', [id]);

    const inFlight = org.api.patch(`/api/v1/contacts/${id}`, { title: 'After' });
    await until('the PATCH to wait on the row lock', async () => {
      const { rows } = await locker.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows.length ? true : undefined;
    });

    child.kill('SIGTERM');
    // Stops accepting: a new connection is refused while the held request is still running.
    await until('new connections to be refused', async () => {
      try {
        await fetch(`${baseUrl}/health/live`);
        return undefined;
      } catch {
        return true;
      }
    });
    expect(child.exitCode).toBeNull();

    await locker.query('COMMIT');
    await locker.end();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe('After');

    const { code, signal } = await exited;
    if (code !== 0) console.error(output());
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output()).toContain('SIGTERM received');
    // Nothing was cut short: no failed query from a pool closed under a running job or request.
    expect(output()).not.toMatch(/Connection terminated|Shutdown failed/);
  });
});

/**
 * Redis gone at shutdown: its clients reconnect for ever and the workers' close waits on them, so only the
 * shutdown timeout (SHUTDOWN_TIMEOUT_MS) ends the process. Redis is reached through a proxy this test owns; cutting
 * the proxy (listener closed, every connection dropped) makes Redis unreachable for this process alone.
 */
describe('shutdown while Redis is unreachable', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let child: ChildProcess;
  let output: () => string;
  const links = new Set<Socket>();
  const redis = new URL(TEST_REDIS_URL);
  const proxy = createServer((client) => {
    const upstream = connect(Number(redis.port || 6379), redis.hostname);
    for (const socket of [client, upstream]) {
      links.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => links.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const proxied = new URL(TEST_REDIS_URL);
    proxied.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const port = await freePort();
    ({ child, output } = startProduction(database.url, port, {
      REDIS_URL: proxied.toString(),
      SHUTDOWN_TIMEOUT_MS: '3000',
    }));
    await until(
      'the app to answer /health/ready',
      async () => ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok ? true : undefined),
      90_000,
    );
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    proxy.close();
    for (const socket of links) socket.destroy();
    await database?.drop();
  });

  it('SIGTERM exits within SHUTDOWN_TIMEOUT_MS, saying so, instead of waiting on Redis for ever', async () => {
    proxy.close();
    for (const socket of links) socket.destroy();
    const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 1, signal: null });
    expect(output()).toContain('SIGTERM received');
    expect(output()).toContain('Shutdown did not finish within 3000 ms (SHUTDOWN_TIMEOUT_MS): exiting');
  });
});
