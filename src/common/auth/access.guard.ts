import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { AuthFailureBudget } from '../rate-limit/auth-failure-budget';
import { ApiError } from '../errors/api-error';
import { ACCESS_KEY, Access } from './access.decorators';
import { AdminTokenCheck } from './admin-token';
import { ConsoleSessionVerifier } from './console-session-verifier';
import { KeyAuthenticator } from './key-authenticator';
import { hasScope } from './scopes';

const REFUSALS = new Set(['UNAUTHORIZED', 'KEY_REVOKED', 'KEY_EXPIRED', 'INSUFFICIENT_SCOPE']);

/**
 * The one global guard. Default-deny: a route must declare `@RequireScope`, `@Public`, `@AdminOnly` or
 * `@ProviderCallback`, and start-up refuses routes that declare none (see assertEveryRouteDeclaresAccess).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly admin: AdminTokenCheck;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyAuthenticator,
    private readonly failures: AuthFailureBudget,
    private readonly sessions: ConsoleSessionVerifier,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.admin = new AdminTokenCheck(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    try {
      return await this.check(access, request);
    } catch (error) {
      // Every refusal of a credential or scope counts against the client address (never a valid key's request).
      if (error instanceof ApiError && REFUSALS.has(error.code)) return this.failures.refuse(request.ip, error);
      throw error;
    }
  }

  private async check(access: Access | undefined, request: FastifyRequest): Promise<boolean> {
    switch (access?.kind) {
      case 'public':
      case 'provider':
        return true;
      case 'admin':
        // The operator's console signs in once and then sends its session cookie; scripts keep the bearer token.
        if (
          request.headers.authorization === undefined &&
          this.admin.enabled &&
          (await this.sessions.verify(request))
        ) {
          return true;
        }
        this.admin.verify(request.headers.authorization);
        return true;
      case 'scope': {
        const header = request.headers['x-api-key'];
        request.auth = await this.keys.authenticate(Array.isArray(header) ? header[0] : header);
        if (!hasScope(request.auth.scopes, access.scope)) {
          throw new ApiError('INSUFFICIENT_SCOPE', `This key lacks the scope ${access.scope}`);
        }
        return true;
      }
      default:
        throw new ApiError('INSUFFICIENT_SCOPE', 'This route declares no access rule');
    }
  }
}
