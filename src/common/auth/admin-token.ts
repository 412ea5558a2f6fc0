import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import { ErrorResponse, toErrorResponse } from '../errors/to-error-response';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * The admin credential check (CONTRACTS §6): `Authorization: Bearer <ADMIN_TOKEN>`. Shared by the access guard
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

  /** The same check for callers outside Nest (the queue dashboard): the error response to send, or undefined. */
  refusal(authorization: string | undefined): ErrorResponse | undefined {
    try {
      this.verify(authorization);
      return undefined;
    } catch (error) {
      return toErrorResponse(error);
    }
  }
}
