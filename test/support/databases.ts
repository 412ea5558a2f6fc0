import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The PostgreSQL server the tests use (the machine's own by default); its `postgres` database is the admin entry. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** One template per checkout, so several working copies can run their suites side by side. */
export const TEMPLATE_DB = `vc_tpl_${createHash('sha1').update(process.cwd()).digest('hex').slice(0, 10)}`;

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

/**
 * A fresh database cloned from the migrated template: every test file gets its own, in ~100 ms. On another
 * `server` (a topology a test started itself, test/scale) it starts empty and the app migrates it at start-up.
 */
export async function createTestDatabase(
  server = TEST_SERVER_URL,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `vc_t_${randomBytes(6).toString('hex')}`;
  const template = server === TEST_SERVER_URL ? ` TEMPLATE ${TEMPLATE_DB}` : '';
  await withAdminClient((c) => c.query(`CREATE DATABASE ${name}${template}`), server);
  return {
    name,
    url: databaseUrl(name, server),
    drop: () =>
      withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`), server).then(() => undefined),
  };
}
