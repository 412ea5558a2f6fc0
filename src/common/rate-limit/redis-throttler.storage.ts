import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import IORedis from 'ioredis';

/**
 * A fixed-window counter in Redis, shared by every instance: one MULTI runs INCR, PEXPIRE NX (starts the
 * window on the first hit only) and PTTL, so concurrent requests on any number of instances count exactly.
 * A key over its limit stays blocked until its window ends (Retry-After = the window's remaining seconds).
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly redis: IORedis;

  constructor(
    redisUrl: string,
    private readonly keyPrefix: string,
  ) {
    this.redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
    // Connection errors surface on the commands themselves (a 503 through the error filter); no unhandled events.
    this.redis.on('error', () => undefined);
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const redisKey = `${this.keyPrefix}:${key}`;
    const replies = await this.redis.multi().incr(redisKey).pexpire(redisKey, ttl, 'NX').pttl(redisKey).exec();
    if (!replies) throw new Error('Rate-limit transaction aborted');
    for (const [error] of replies) if (error) throw error;
    const totalHits = Number(replies[0][1]);
    const pttl = Number(replies[2][1]);
    const secondsLeft = Math.max(1, Math.ceil((pttl > 0 ? pttl : ttl) / 1000));
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
