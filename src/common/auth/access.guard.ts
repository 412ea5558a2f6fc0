import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { ApiError } from '../errors/api-error';
import { ACCESS_KEY, Access } from './access.decorators';
import { AdminTokenCheck } from './admin-token';
import { KeyAuthenticator } from './key-authenticator';
import { hasScope } from './scopes';

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
    switch (access?.kind) {
      case 'public':
      case 'provider':
        return true;
      case 'admin':
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
