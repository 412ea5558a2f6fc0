import { Module } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { RedisThrottlerStorage } from './redis-throttler.storage';

import { ActionBudget } from './action-budget';
import { AuthFailureBudget } from './auth-failure-budget';
import { RATE_LIMIT_STORAGE, RATE_LIMIT_WINDOW_MS } from './rate-limit-storage';

/**
 * Where the counters live: Redis when REDIS_URL is set (one limit across every instance); otherwise each process
 * counts in memory, so N API instances without Redis allow N times the limit (documented in docs/operations.md).
 */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ThrottlerStorage =>
        config.redisUrl
          ? new RedisThrottlerStorage({ url: config.redisUrl, cluster: config.redisCluster }, config.queuePrefix)
          : new ThrottlerStorageService(),
    },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
class RateLimitStorageModule {}

/**
 * @nestjs/throttler configured for RATE_LIMIT_PER_MINUTE per key (the guard itself is registered in AppModule),
 * the per-address budget of failed authentications the access guard charges, and per-minute budgets of actions.
 */
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [APP_CONFIG, RATE_LIMIT_STORAGE],
      useFactory: (config: AppConfig, storage: ThrottlerStorage) => ({
        throttlers: [{ name: 'default', ttl: RATE_LIMIT_WINDOW_MS, limit: config.rateLimitPerMinute }],
        storage,
      }),
    }),
  ],
  providers: [ActionBudget, AuthFailureBudget],
  exports: [ThrottlerModule, ActionBudget, AuthFailureBudget],
})
export class RateLimitModule {}
