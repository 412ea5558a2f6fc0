import { ConnectionOptions, createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import { AppConfig } from '../config/app-config';

export interface QueueConnection {
  kind: 'redis' | 'postgres';
  connection: ConnectionOptions;
  prefix: string;
}

/** ioredis options from a `redis://` / `rediss://` URL. */
function redisOptions(url: string): ConnectionOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    // Workers block on Redis; BullMQ requires unlimited retries per request for them.
    maxRetriesPerRequest: null,
  };
}

/**
 * Where the queues live. Redis when REDIS_URL is set; otherwise BullMQ's PostgreSQL backend in our own
 * database, selected process-wide with one call so every Queue and Worker follows the same choice. That backend
 * gets the direct URL (DATABASE_DIRECT_URL), never a transaction pooler: its workers wait on a LISTEN connection,
 * its pool pins `search_path` with a startup option PgBouncer refuses, and it finds workers by application_name.
 */
export function queueConnection(config: AppConfig, directDatabaseUrl: string): QueueConnection {
  if (config.redisUrl) {
    setDefaultBackendFactory(undefined);
    return { kind: 'redis', connection: redisOptions(config.redisUrl), prefix: config.queuePrefix };
  }
  setDefaultBackendFactory(createPostgresBackend);
  return {
    kind: 'postgres',
    connection: { connectionString: directDatabaseUrl, max: 10 } as unknown as ConnectionOptions,
    prefix: config.queuePrefix,
  };
}
