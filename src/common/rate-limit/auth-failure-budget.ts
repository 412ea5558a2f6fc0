import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { ApiError } from '../errors/api-error';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { RATE_LIMIT_STORAGE, RATE_LIMIT_WINDOW_MS } from './rate-limit-storage';

/**
 * Failed authentications and scope refusals per client address (CONTRACTS §7, AUTH_FAILURE_LIMIT_PER_MINUTE),
 * in the same store as the per-key limit. Only failures are counted, so a valid key used from an address that
 * is being abused keeps working; past the budget, each further failure is a 429 with Retry-After instead of its
 * 401/403, which makes guessing keys from one address slow and visible.
 */
@Injectable()
export class AuthFailureBudget {
  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts one failure of `address`, then throws `refusal`, or a 429 once the address is over its budget. */
  async refuse(address: string, refusal: unknown): Promise<never> {
    const limit = this.config.authFailureLimitPerMinute;
    const window = RATE_LIMIT_WINDOW_MS;
    const record = await this.storage.increment(`auth-failures:${address}`, window, limit, window, 'auth');
    if (!record.isBlocked) throw refusal;
    const retryAfter = String(Math.max(1, record.timeToBlockExpire || record.timeToExpire));
    throw new ApiError(
      'RATE_LIMITED',
      `More than ${limit} failed authentications per minute from this address; retry in ${retryAfter} s`,
      undefined,
      { 'retry-after': retryAfter },
    );
  }
}
