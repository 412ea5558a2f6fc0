import IORedis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';

/** Where Redis is: `REDIS_URL`, and whether it names one node of a Redis Cluster (`REDIS_CLUSTER`). */
export interface RedisSettings {
  url: string;
  cluster: boolean;
}

/** A single-node client or a cluster client: both speak the same commands, scripts and pipelines. */
export type RedisClient = IORedis | Cluster;

/**
 * What a caller may tune per client. `retryStrategy` is the reconnect policy: on a cluster it becomes the
 * cluster's (`clusterRetryStrategy`), which decides whether the whole client reconnects.
 */
export type RedisClientOptions = Omit<RedisOptions, 'host' | 'port' | 'path' | 'username' | 'password' | 'db' | 'tls'>;

/** The connection part of a `redis://` / `rediss://` URL, as ioredis options. */
function fromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}

/**
 * The one place that opens Redis connections: the queues (every BullMQ connection comes from here, see
 * queue-connection.ts), the rate-limit counters and the start-up check all call it.
 *
 * On a cluster, REDIS_URL names any one node: ioredis discovers the others (CLUSTER SLOTS) and follows
 * MOVED/ASK redirections. A cluster has no databases, so a `/db` in the URL is ignored. The per-connection
 * options (timeouts, retries, names) go to every node's connection; the offline queue, lazy connect and the
 * reconnect policy are the cluster client's own.
 */
export function createRedisClient(settings: RedisSettings, options: RedisClientOptions = {}): RedisClient {
  const node = fromUrl(settings.url);
  if (!settings.cluster) return new IORedis({ ...options, ...node });
  const { host, port, db: _db, ...auth } = node;
  const { retryStrategy, lazyConnect, enableOfflineQueue, enableReadyCheck, ...perNode } = options;
  const clusterOptions: ClusterOptions = {
    lazyConnect,
    enableOfflineQueue,
    enableReadyCheck,
    clusterRetryStrategy: retryStrategy,
    redisOptions: { ...perNode, ...auth },
    // Over TLS, nodes are reached by the names they announce (ioredis would resolve them to addresses first),
    // so the certificates' names can be checked against them.
    ...(auth.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  };
  return new Cluster([{ host, port }], clusterOptions);
}
