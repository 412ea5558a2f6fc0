import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** Debian's PostgreSQL 15 server binaries (the package CI's .ci/run starts). */
const BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL primary and its streaming replica, both in a temporary directory and on ports of this suite
 * (15432-15449), so the test never touches the machine's own cluster or its pg_hba.conf: `initdb` makes the
 * primary (trust on 127.0.0.1, replication allowed), `pg_basebackup -R` copies it into a standby that `pg_ctl`
 * starts. Neither keeps data past `stop()`; fsync is off (a test's data needs no durability).
 */
export interface ReplicaPair {
  /** The primary's admin URL (its `postgres` database), for startTestApp's `server`. */
  primaryUrl: string;
  /** `databaseUrl` (a database on the primary) as read on the replica. */
  onReplica(databaseUrl: string): string;
  /** Runs SQL on the replica as the superuser (pg_wal_replay_pause(), ...). */
  replicaSql(sql: string): Promise<unknown[]>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stopReplica(): void;
  stop(): void;
}

export async function startReplicaPair(primaryPort: number, replicaPort: number): Promise<ReplicaPair> {
  const dir = mkdtempSync(join(tmpdir(), 'vc-replica-'));
  // PostgreSQL refuses to run as root; as root (CI) every step runs as the postgres user, who must own the dir.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  chmodSync(dir, 0o700);
  const run = (binary: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, binary), ...args], { stdio: 'pipe' })
      : execFileSync(join(BIN, binary), args, { stdio: 'pipe' });
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  const log = (name: string) => join(dir, `${name}.log`);
  const started: string[] = [];
  const stopServer = (data: string) => {
    try {
      run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
    } catch {
      // Already stopped.
    }
  };
  try {
    run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    appendFileSync(
      join(primary, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 4',
        'max_connections = 200',
        'shared_buffers = 32MB',
        'fsync = off',
        'synchronous_commit = off',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(primary, 'pg_hba.conf'),
      'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n',
    );
    run('pg_ctl', ['start', '-D', primary, '-l', log('primary'), '-w', '-t', '30']);
    started.push(primary);
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replica,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    appendFileSync(join(replica, 'postgresql.conf'), `port = ${replicaPort}\nhot_standby = on\n`);
    run('pg_ctl', ['start', '-D', replica, '-l', log('replica'), '-w', '-t', '30']);
    started.push(replica);
  } catch (error) {
    for (const data of started.reverse()) stopServer(data);
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`could not start the primary and replica: ${(error as Error).message} ${stderr}`);
  }
  const onReplica = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.port = String(replicaPort);
    return url.toString();
  };
  const replicaSql = async (sql: string) => {
    const client = new Client({ connectionString: `postgres://postgres@127.0.0.1:${replicaPort}/postgres` });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  return {
    primaryUrl,
    onReplica,
    replicaSql,
    async caughtUp() {
      const admin = new Client({ connectionString: primaryUrl });
      await admin.connect();
      try {
        const [{ lsn }] = (await admin.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows;
        for (let i = 0; i < 200; i++) {
          const [row] = (await replicaSql(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`)) as Array<{
            done: boolean;
          }>;
          if (row.done) return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`the replica did not replay up to ${lsn}`);
      } finally {
        await admin.end();
      }
    },
    stopReplica: () => stopServer(replica),
    stop() {
      stopServer(replica);
      stopServer(primary);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
