import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import { ErrorResponse, toErrorResponse } from '../errors/to-error-response';
import type { AuthFailureBudget } from '../rate-limit/auth-failure-budget';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * The admin credential check (docs/contracts/admin-api.md): `Authorization: Bearer <ADMIN_TOKEN>`. Shared by the access guard
 * (admin API routes) and the queue dashboard (a Fastify plugin outside Nest routing), so both answer alike.
 */
export class AdminTokenCheck {
  private readonly tokenHash?: Buffer;

  constructor(adminToken: string | undefined) {
    this.tokenHash = adminToken ? sha256(adminToken) : undefined;
  }

  /** False when no ADMIN_TOKEN is configured: then everything behind it does not exist. */
  get enabled(): boolean {
    return this.tokenHash !== undefined;
  }

  /** Throws 404 NOT_FOUND when admin access is off, 401 UNAUTHORIZED when the header is missing or wrong. */
  verify(authorization: string | undefined): void {
    // With no ADMIN_TOKEN the admin API does not exist: answer like an unknown route.
    if (!this.tokenHash) throw new ApiError('NOT_FOUND', 'Route not found');
    const header = authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    // Comparing fixed-length digests keeps the comparison constant-time whatever the token's length.
    if (!token || !timingSafeEqual(sha256(token), this.tokenHash)) {
      throw new ApiError('UNAUTHORIZED', 'Missing or invalid admin token');
    }
  }

  /**
   * The same check for callers outside Nest (the queue dashboard): the error response to send, or undefined. A
   * wrong token is charged to `address` in `failures` (AUTH_FAILURE_LIMIT_PER_MINUTE), so guessing the token
   * through the dashboard is as slow as through the admin API; past the budget the answer is 429.
   */
  async refusal(
    authorization: string | undefined,
    address: string,
    failures: AuthFailureBudget,
  ): Promise<ErrorResponse | undefined> {
    try {
      this.verify(authorization);
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'UNAUTHORIZED') return toErrorResponse(error);
      return failures.refuse(address, error).catch(toErrorResponse);
    }
  }
}
