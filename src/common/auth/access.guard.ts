import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { ApiError } from '../errors/api-error';
import { ACCESS_KEY, Access } from './access.decorators';
import { KeyAuthenticator } from './key-authenticator';
import { hasScope } from './scopes';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * The one global guard. Default-deny: a route must declare `@RequireScope`, `@Public`, `@AdminOnly` or
 * `@ProviderCallback`, and start-up refuses routes that declare none (see assertEveryRouteDeclaresAccess).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly adminTokenHash?: Buffer;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyAuthenticator,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.adminTokenHash = config.adminToken ? sha256(config.adminToken) : undefined;
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
        this.checkAdmin(request);
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

  private checkAdmin(request: FastifyRequest): void {
    // With no ADMIN_TOKEN the admin API does not exist: answer like an unknown route.
    if (!this.adminTokenHash) throw new ApiError('NOT_FOUND', 'Route not found');
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !timingSafeEqual(sha256(token), this.adminTokenHash)) {
      throw new ApiError('UNAUTHORIZED', 'Missing or invalid admin token');
    }
  }
}
