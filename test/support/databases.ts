import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The PostgreSQL server the tests use (the machine's own by default); its `postgres` database is the admin entry. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHECKOUT = createHash('sha1').update(process.cwd()).digest('hex').slice(0, 10);
/** One template per checkout, so several working copies can run their suites side by side. */
export const TEMPLATE_DB = `vc_tpl_${CHECKOUT}`;
/** The databases this checkout's test files make on the local server: what the global teardown sweeps. */
export const TEST_DB_PREFIX = `vc_t_${CHECKOUT}_`;

export function databaseUrl(name: string, server = TEST_SERVER_URL): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(fn: (client: Client) => Promise<T>, server = TEST_SERVER_URL): Promise<T> {
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops every database of this checkout's test files that is still there (the global setup and teardown). */
export async function dropTestDatabases(): Promise<void> {
  await withAdminClient(async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [TEST_DB_PREFIX],
    );
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
}

/**
 * A fresh database cloned from the migrated template: every test file gets its own, in ~100 ms. On another
 * `server` (a topology a test started itself, test/scale) it starts empty and the app migrates it at start-up.
 *
 * `drop` on the local server starts the drop and returns: PostgreSQL answers a DROP DATABASE only after a
 * checkpoint (2-5 s of disk writes on this machine), which the next file in the worker need not wait for. A drop the
 * worker did not live to finish is swept by the global teardown.
 */
export async function createTestDatabase(
  server = TEST_SERVER_URL,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const local = server === TEST_SERVER_URL;
  const name = local ? `${TEST_DB_PREFIX}${randomBytes(6).toString('hex')}` : `vc_t_${randomBytes(6).toString('hex')}`;
  await withAdminClient((c) => c.query(`CREATE DATABASE ${name}${local ? ` TEMPLATE ${TEMPLATE_DB}` : ''}`), server);
  const drop = () =>
    withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`), server).then(() => undefined);
  return {
    name,
    url: databaseUrl(name, server),
    drop: async () => {
      if (!local) return drop();
      drop().catch(() => undefined);
    },
  };
}
