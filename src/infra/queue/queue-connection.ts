import {
  ConnectionOptions,
  RedisConnection,
  createIORedisClient,
  createPostgresBackend,
  setDefaultBackendFactory,
} from 'bullmq';
import { AppConfig } from '../config/app-config';
import { RedisSettings, createRedisClient } from '../redis/redis-client';
import { QueueName } from './queue-names';

export interface QueueConnection {
  kind: 'redis' | 'postgres';
  connection: ConnectionOptions;
  /** QUEUE_PREFIX; the keys of one queue carry it as prefixOf says. */
  prefix: string;
  /** Redis Cluster: each queue's keys share one hash tag of their own (prefixOf). */
  cluster?: boolean;
}

/**
 * The key prefix of one queue. On a Redis Cluster every key a BullMQ script touches must hash to one slot, so each
 * queue's prefix is a hash tag of its own (`{vc:webhook-deliveries}`): a queue lives on one slot, and the queues
 * spread over the cluster's masters. On one node the prefix is QUEUE_PREFIX as it always was.
 */
export function prefixOf(connection: QueueConnection, queue: QueueName): string {
  return connection.cluster ? `{${connection.prefix}:${queue}}` : connection.prefix;
}

/**
 * Where the queues live. Redis when REDIS_URL is set; otherwise BullMQ's PostgreSQL backend in our own
 * database, selected process-wide with one call so every Queue and Worker follows the same choice. That backend
 * gets the direct URL (DATABASE_DIRECT_URL), never a transaction pooler: its workers wait on a LISTEN connection,
 * its pool pins `search_path` with a startup option PgBouncer refuses, and it finds workers by application_name.
 *
 * On Redis, BullMQ opens its connections (each queue's, each worker's blocking one) through our Redis factory
 * (its process-wide client factory), so a cluster gets cluster clients everywhere; the options here are only the
 * per-connection ones BullMQ merges in (its connection names, its retry policy).
 */
export function queueConnection(config: AppConfig, directDatabaseUrl: string): QueueConnection {
  if (config.redisUrl) {
    const settings: RedisSettings = { url: config.redisUrl, cluster: config.redisCluster };
    setDefaultBackendFactory(undefined);
    RedisConnection.clientFactory = ({ host: _host, port: _port, ...options }) =>
      createIORedisClient(createRedisClient(settings, options));
    return {
      kind: 'redis',
      // Workers block on Redis; BullMQ requires unlimited retries per request for them.
      connection: { maxRetriesPerRequest: null },
      prefix: config.queuePrefix,
      cluster: config.redisCluster,
    };
  }
  RedisConnection.clientFactory = undefined;
  setDefaultBackendFactory(createPostgresBackend);
  return {
    kind: 'postgres',
    connection: { connectionString: directDatabaseUrl, max: 10 } as unknown as ConnectionOptions,
    prefix: config.queuePrefix,
  };
}
