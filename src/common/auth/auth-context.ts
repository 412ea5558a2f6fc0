import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** What an authenticated API request carries: the organization bound to the key, never taken from input. */
export interface AuthContext {
  organizationId: string;
  apiKeyId: string;
  scopes: readonly string[];
  /** false for a `test` key (docs/contracts/modes.md): its calls and messages go to the simulators and are marked as test. */
  livemode: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** The organization id bound to the request's API key. */
export const OrgId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const auth = ctx.switchToHttp().getRequest<FastifyRequest>().auth;
  if (!auth) throw new Error('OrgId used on a route without API-key authentication');
  return auth.organizationId;
});

/** Whether the request's key is a `live` key (true) or a `test` key (false). */
export const Livemode = createParamDecorator((_: unknown, ctx: ExecutionContext): boolean => {
  const auth = ctx.switchToHttp().getRequest<FastifyRequest>().auth;
  if (!auth) throw new Error('Livemode used on a route without API-key authentication');
  return auth.livemode;
});
