import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { runMigrations } from 'bullmq';
import { AppConfig } from '../infra/config/app-config';
import { dataSourceOptions } from '../infra/database/data-source-options';
import { DatabaseUrls } from '../infra/database/database-urls';
import { startEmbeddedPostgres } from '../infra/database/embedded-postgres';
import { QueueConnection, queueConnection } from '../infra/queue/queue-connection';
import { RedisClient, RedisSettings, createRedisClient } from '../infra/redis/redis-client';

export class StartupError extends Error {}

export interface Infrastructure {
  database: DatabaseUrls;
  queue: QueueConnection;
  /** Stops what this process started itself (the embedded PostgreSQL). */
  stop: () => Promise<void>;
}

/** A URL fit for a log line: the password replaced. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable URL>';
  }
}

async function checkPostgres(url: string, variable: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new StartupError(
      `Cannot reach PostgreSQL at ${redact(url)} (${(error as Error).message}). Start PostgreSQL or fix ${variable}` +
        (variable === 'DATABASE_URL' ? '; unset DATABASE_URL outside production to use the embedded database.' : '.'),
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * BullMQ keeps jobs in Redis; a Redis that evicts keys under memory pressure silently loses them. We warn rather
 * than refuse, since managed Redis services do not always let the policy be read.
 */
async function warnUnlessNoEviction(redis: RedisClient): Promise<void> {
  const reply = (await redis.config('GET', 'maxmemory-policy').catch(() => [])) as string[];
  const policy = reply[1];
  if (policy && policy !== 'noeviction') {
    new Logger('Startup').warn(
      `Redis maxmemory-policy is "${policy}"; set it to "noeviction" or queued jobs may be evicted under memory pressure.`,
    );
  }
}

/** A cluster that has not covered all its slots (still forming, or a master lost) would fail some keys only. */
async function checkClusterState(redis: RedisClient): Promise<void> {
  const info = (await redis.cluster('INFO')) as string;
  const state = /cluster_state:(\w+)/.exec(info)?.[1];
  if (state !== 'ok') throw new Error(`cluster_state is ${state ?? 'unknown'}, not ok`);
}

async function checkRedis(settings: RedisSettings): Promise<void> {
  const url = settings.url;
  const redis = createRedisClient(settings, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    if (settings.cluster) await checkClusterState(redis);
    await warnUnlessNoEviction(redis);
  } catch (error) {
    throw new StartupError(
      `Cannot reach Redis at ${redact(url)} (${(error as Error).message}). Start Redis or fix REDIS_URL; ` +
        `${settings.cluster ? 'unset REDIS_CLUSTER for a single node; ' : ''}unset REDIS_URL to run the queues on PostgreSQL.`,
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Applies our TypeORM migrations and, for PostgreSQL-backed queues, BullMQ's own schema. Both are idempotent. Run
 * on the direct URL: a migration may hold a session-level lock or SET, which a transaction pooler cannot carry.
 */
export async function migrate(databaseUrl: string, queue: QueueConnection): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(databaseUrl));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  if (queue.kind === 'postgres') {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await runMigrations(client);
    } finally {
      await client.end();
    }
  }
}

/**
 * Everything that must be true before Nest starts: a reachable database (configured, or embedded outside
 * production), a reachable Redis when one is configured, and an up-to-date schema. Failures are one clear line.
 */
export async function prepareInfrastructure(config: AppConfig): Promise<Infrastructure> {
  let stop = async (): Promise<void> => undefined;
  let database: DatabaseUrls;
  if (config.databaseUrl) {
    database = {
      main: config.databaseUrl,
      direct: config.databaseDirectUrl ?? config.databaseUrl,
      // Only the API reads from the replica (its GET routes); other roles open no pool there.
      read: config.roles.has('api') ? config.databaseReadUrl : undefined,
    };
  } else {
    const embedded = await startEmbeddedPostgres(config.embeddedPgPort);
    database = { main: embedded.url, direct: embedded.url };
    stop = embedded.stop;
  }
  await checkPostgres(database.main, 'DATABASE_URL');
  if (database.direct !== database.main) await checkPostgres(database.direct, 'DATABASE_DIRECT_URL');
  // A replica that is down at start-up stops it like the primary would: the read pool is opened eagerly.
  if (database.read) await checkPostgres(database.read, 'DATABASE_READ_URL');
  if (config.redisUrl) await checkRedis({ url: config.redisUrl, cluster: config.redisCluster });
  const queue = queueConnection(config, database.direct);
  if (config.migrateOnStart) await migrate(database.direct, queue);
  return { database, queue, stop };
}
