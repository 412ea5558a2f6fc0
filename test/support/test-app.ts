import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client, Pool } from 'pg';
import { SwaggerModule } from '@nestjs/swagger';
import { createApp } from '../../src/bootstrap/create-app';
import { prepareInfrastructure } from '../../src/bootstrap/prepare-infrastructure';
import { parseConfig } from '../../src/infra/config/app-config';
import { TEST_REDIS_URL, TEST_SERVER_URL, createTestDatabase } from './databases';
import { GENERATED_DIR } from './generated-sources';
import { HttpClient } from './http';

/** Random per run: production start-up (spawned by some suites) refuses a token published in the repository. */
export const ADMIN_TOKEN = `test-admin-token-${randomBytes(16).toString('hex')}`;

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  databaseUrl: string;
  queuePrefix: string;
  /** For assertions on what was written; tests never write through it. */
  db: Pool;
  admin: HttpClient;
  anonymous: HttpClient;
  /** Starts another process-like instance on the same database and queues (scale-out and role tests). */
  startPeer(env?: Record<string, string>): Promise<{ app: NestFastifyApplication; baseUrl: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Run the queues on BullMQ's PostgreSQL backend instead of Redis. */
  postgresQueues?: boolean;
  /**
   * Settings derived from the fresh database's URL, for topologies in front of it (test/scale: DATABASE_URL
   * through a PgBouncer, DATABASE_READ_URL on a replica, once the replica has the database). Assertions (`db`)
   * keep the database's own URL.
   */
  databaseEnv?: (databaseUrl: string) => Record<string, string> | Promise<Record<string, string>>;
  /** The PostgreSQL server (its admin URL) to create the database on; the machine's own by default. */
  server?: string;
}

/**
 * Boots the real application, listening on a random local port, against its own fresh database cloned from
 * the migrated template and its own queue prefix on the real Redis (or PostgreSQL queues).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // An app on PostgreSQL queues holds ~43 of the server's 100 connections (each queue its LISTEN and its pool),
  // against ~7 on Redis: one such app at a time across the parallel test files, so they cannot add up past it.
  const heavy = options.postgresQueues ? await holdAcrossWorkers('postgres-queue-app') : undefined;
  return bootTestApp(options)
    .catch(async (error: unknown) => {
      await heavy?.release();
      throw error;
    })
    .then((t) => ({ ...t, close: () => t.close().finally(() => heavy?.release()) }));
}

async function bootTestApp(options: TestAppOptions): Promise<TestApp> {
  const database = await createTestDatabase(options.server);
  const queuePrefix = `t${randomBytes(5).toString('hex')}`;
  const baseEnv: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    QUEUE_PREFIX: queuePrefix,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Several apps (peers, parallel files) share one PostgreSQL and its 100 connections.
    DATABASE_POOL_SIZE: '8',
    SIMULATOR_RING_MS: '50',
    SIMULATOR_CALL_MS: '300',
    // Suites and benchmarks send thousands of requests with one key; the limit itself is tested in test/operate.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Likewise for refused credentials (security matrices send hundreds); the budget is tested in test/prove.
    AUTH_FAILURE_LIMIT_PER_MINUTE: '1000000',
    ...(options.postgresQueues ? {} : { REDIS_URL: TEST_REDIS_URL }),
    ...(await options.databaseEnv?.(database.url)),
    ...options.env,
  };
  const apps: NestFastifyApplication[] = [];
  // The compiler plugin's OpenAPI metadata, as `nest build` gives it (test/support/generated-sources.ts).
  await SwaggerModule.loadPluginMetadata((await import(join(GENERATED_DIR, 'swagger-metadata'))).default);
  const boot = async (env: Record<string, string>) => {
    const config = parseConfig(env);
    const infra = await prepareInfrastructure(config);
    const app = await createApp({ config, database: infra.database, queue: infra.queue });
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { app, baseUrl: `http://127.0.0.1:${port}` };
  };
  const main = await boot(baseEnv);
  const db = new Pool({ connectionString: database.url, max: 4 });
  // An idle assertion connection cut by the forced drop at teardown is expected; without a listener the pool
  // would raise it as an uncaught error into whichever test runs next in this worker.
  db.on('error', () => undefined);
  return {
    app: main.app,
    baseUrl: main.baseUrl,
    databaseUrl: database.url,
    queuePrefix,
    db,
    admin: new HttpClient(main.baseUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    anonymous: new HttpClient(main.baseUrl),
    startPeer: (env = {}) => boot({ ...baseEnv, ...env }),
    close: async () => {
      for (const app of apps.reverse()) await app.close();
      // Give connections the apps closed a moment to go, so the forced drop below interrupts nobody.
      for (let i = 0; i < 40; i++) {
        const { rows } = await db.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await db.end();
      await database.drop();
    },
  };
}

/**
 * Holds a PostgreSQL advisory lock named `name` on the test server until `release`: what the parallel Jest
 * workers (separate processes) may not do at the same time.
 */
async function holdAcrossWorkers(name: string): Promise<{ release: () => Promise<void> }> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  return { release: () => client.end() };
}
