import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { ApiError } from '../errors/api-error';
import { RATE_LIMIT_STORAGE, RATE_LIMIT_WINDOW_MS } from './rate-limit-storage';

/**
 * A per-minute budget of one kind of action, counted in the rate limits' store (Redis, so every instance shares
 * it; in memory without Redis): `spend` counts one action under `key` and, past `limit` in the current minute,
 * throws 429 RATE_LIMITED with `Retry-After` (seconds until the minute ends) and `reason` as the message.
 */
@Injectable()
export class ActionBudget {
  constructor(@Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage) {}

  async spend(key: string, limit: number, reason: (retryAfter: string) => string): Promise<void> {
    const window = RATE_LIMIT_WINDOW_MS;
    const record = await this.storage.increment(key, window, limit, window, 'budget');
    if (!record.isBlocked) return;
    const retryAfter = String(Math.max(1, record.timeToBlockExpire || record.timeToExpire));
    throw new ApiError('RATE_LIMITED', reason(retryAfter), undefined, { 'retry-after': retryAfter });
  }
}
