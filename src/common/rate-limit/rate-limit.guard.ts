import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';

/**
 * The per-API-key rate limit. Registered as the global guard right after AccessGuard, so it runs once the key is
 * authenticated: requests without `request.auth` (health, docs, admin API, provider callbacks, the queue
 * dashboard) are never limited. One budget per key across every route and every instance.
 * Headers: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window resets) on
 * every limited response, and `Retry-After` (seconds) with the 429 RATE_LIMITED envelope.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
    this.headerPrefix = 'RateLimit';
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<FastifyRequest>().auth;
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return (request as unknown as FastifyRequest).auth!.apiKeyId;
  }

  /** The key alone (not the route, the throttler's default): the limit is per key for the whole API. */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `rate:${name}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = String(detail.timeToBlockExpire);
    throw new ApiError(
      'RATE_LIMITED',
      `Rate limit of ${detail.limit} requests per minute exceeded for this API key; retry in ${retryAfter} s`,
      undefined,
      {
        'retry-after': retryAfter,
        'ratelimit-limit': String(detail.limit),
        'ratelimit-remaining': '0',
        'ratelimit-reset': retryAfter,
      },
    );
  }
}
