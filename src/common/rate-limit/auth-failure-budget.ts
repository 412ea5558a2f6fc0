import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { ActionBudget } from './action-budget';

/**
 * Failed authentications and scope refusals per client address (docs/contracts/bounds.md, AUTH_FAILURE_LIMIT_PER_MINUTE),
 * in the same store as the per-key limit. Only failures are counted, so a valid key used from an address that
 * is being abused keeps working; past the budget, each further failure is a 429 with Retry-After instead of its
 * 401/403, which makes guessing keys from one address slow and visible.
 */
@Injectable()
export class AuthFailureBudget {
  constructor(
    private readonly budget: ActionBudget,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts one failure of `address`, then throws `refusal`, or a 429 once the address is over its budget. */
  async refuse(address: string, refusal: unknown): Promise<never> {
    const limit = this.config.authFailureLimitPerMinute;
    await this.budget.spend(
      `auth-failures:${address}`,
      limit,
      (retryAfter) =>
        `More than ${limit} failed authentications per minute from this address; retry in ${retryAfter} s`,
    );
    throw refusal;
  }
}
