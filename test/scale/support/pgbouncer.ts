import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TEST_SERVER_URL } from '../../support/databases';

/**
 * The PgBouncer settings the service needs (docs/operations.md, "PgBouncer"): transaction pooling, every
 * database of the local PostgreSQL served under its own name. Debian's `pgbouncer` package (CI's .ci/run
 * installs it); started by the test itself on `port` (15432-15449 are this suite's), stopped at the end.
 */
export interface PgBouncer {
  /** `databaseUrl` with its host and port replaced by the pooler's. */
  via(databaseUrl: string): string;
  /** SHOW POOLS through the admin console: the server connections the pooler holds per database. */
  pools(): Promise<Array<{ database: string; sv_active: number; sv_idle: number; cl_active: number }>>;
  stop(): Promise<void>;
}

const BINARY = '/usr/sbin/pgbouncer';

export async function startPgBouncer(port: number): Promise<PgBouncer> {
  if (spawnSync(BINARY, ['--version']).status !== 0) {
    throw new Error(`${BINARY} not found: apt-get install pgbouncer (.ci/run does)`);
  }
  const server = new URL(TEST_SERVER_URL);
  const dir = mkdtempSync(join(tmpdir(), 'vc-pgbouncer-'));
  // PgBouncer refuses to run as root; as root (CI) it drops to the postgres user, which must read its files.
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'userlist.txt'), `"${server.username || 'postgres'}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `admin_users = ${server.username || 'postgres'}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 20',
      // node-postgres sends extra_float_digits; nothing the service needs is a startup parameter.
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(BINARY, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const adminUrl = `postgres://${server.username || 'postgres'}@127.0.0.1:${port}/pgbouncer`;
  for (let i = 0; ; i++) {
    const probe = new Client({ connectionString: adminUrl });
    try {
      await probe.connect();
      await probe.end();
      break;
    } catch (error) {
      await probe.end().catch(() => undefined);
      if (i > 50 || child.exitCode !== null) throw new Error(`pgbouncer did not start on ${port}: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    via(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async pools() {
      // The admin console speaks only the simple query protocol.
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        const { rows } = await admin.query({ text: 'SHOW POOLS', queryMode: 'simple' } as never);
        return rows as never;
      } finally {
        await admin.end();
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
