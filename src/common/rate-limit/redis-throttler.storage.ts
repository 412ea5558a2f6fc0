import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { RedisClient, RedisSettings, createRedisClient } from '../../infra/redis/redis-client';
import { ApiError } from '../errors/api-error';

/**
 * INCR, PEXPIRE NX (starts the window on the first hit only) and PTTL as one script: atomic like a MULTI of the
 * three, but one command and one reply per request instead of five of each (the MULTI's parsing was ~5 % of the
 * server's CPU under POST /contacts, BENCHMARKS.md). ioredis sends it by its SHA and loads it on NOSCRIPT.
 */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1], 'NX')
return {hits, redis.call('PTTL', KEYS[1])}`;

/**
 * How long one counter update may take before the request is answered 503: a Redis that stopped answering (a
 * dropped network rather than a refused connection) must not hold every API request until the socket times out.
 */
export const RATE_LIMIT_COMMAND_TIMEOUT_MS = 2000;

/** The client with HIT_SCRIPT defined on it: `[totalHits, pttl]` for a key and the window's length in ms. */
type ScriptedRedis = RedisClient & { rateLimitHit(key: string, ttlMs: number): Promise<[number, number]> };

/**
 * A fixed-window counter in Redis, shared by every instance: each hit counts and reads the window's remaining
 * time atomically (HIT_SCRIPT), so concurrent requests on any number of instances count exactly. A key over its
 * limit stays blocked until its window ends (Retry-After = the window's remaining seconds).
 *
 * One script touches one key, so on a Redis Cluster each hit is one slot's business (no cross-slot call).
 *
 * Fails closed: when Redis cannot be reached, the request is answered 503 SERVICE_UNAVAILABLE with Retry-After
 * instead of being let through uncounted (the reasons are in docs/operations.md, "Rate limits").
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly redis: ScriptedRedis;

  constructor(
    settings: RedisSettings,
    private readonly keyPrefix: string,
  ) {
    const redis = createRedisClient(settings, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      commandTimeout: RATE_LIMIT_COMMAND_TIMEOUT_MS,
    });
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as ScriptedRedis;
    // Connection errors surface on the commands themselves (a 503, see increment); no unhandled events.
    this.redis.on('error', () => undefined);
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const redisKey = `${this.keyPrefix}:${key}`;
    const [totalHits, pttl] = await this.redis.rateLimitHit(redisKey, ttl).catch((error: unknown) => {
      throw ApiError.unavailable('Redis', error);
    });
    const secondsLeft = Math.max(1, Math.ceil((pttl > 0 ? pttl : ttl) / 1000));
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
