import { CallHandler, ExecutionContext, Injectable, NestInterceptor, Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { Observable, from, of } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { consoleRequestWorld } from '../auth/console-request-world';
import { ApiError } from '../errors/api-error';
import { IdempotencyService } from './idempotency.service';
import { IDEMPOTENT_SECRET_SOURCE, ReplaySecretSource, restoreSecret, withholdSecret } from './replay-secret';
import { stableJson } from './stable-json';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Where Nest's @HttpCode() keeps the status (not exported from the package root). */
const HTTP_CODE_METADATA = '__httpCode__';

/** Replays, conflicts and stores responses for routes marked `@Idempotent()` that receive an Idempotency-Key. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    const clientKey = Array.isArray(header) ? header[0] : header;
    if (!KEY_PATTERN.test(clientKey)) {
      throw ApiError.validation('Idempotency-Key', 'Idempotency-Key must be 1-255 printable ASCII characters');
    }
    // A console route (signed-in operator, no key) names its world in the path and the Test / Live switch.
    const { organizationId, livemode } = request.auth ?? consoleRequestWorld(request);
    // Keys are kept per organization and world: a test key's key never replays a live response. The stored key
    // of the test world starts with "test " (a space, which no client key can hold), so the two never meet.
    const key = livemode ? clientKey : `test ${clientKey}`;
    const hash = createHash('sha256')
      .update(`${request.method} ${request.routeOptions.url}\n${stableJson(request.body ?? null)}`)
      .digest('hex');
    const claim = await this.idempotency.claim(organizationId, key, hash);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const secretFrom = this.reflector.get<Type<ReplaySecretSource> | undefined>(
      IDEMPOTENT_SECRET_SOURCE,
      context.getHandler(),
    );
    if (claim.kind === 'replay') {
      const body = secretFrom
        ? await restoreSecret(
            claim.body,
            { organizationId, livemode },
            this.moduleRef.get(secretFrom, { strict: false }),
          )
        : claim.body;
      void reply.status(claim.status).header('Idempotent-Replayed', 'true');
      return of(body);
    }
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
    const stored = (body: unknown) => (secretFrom ? withholdSecret(body) : body);
    return next.handle().pipe(
      mergeMap((body) => from(this.idempotency.complete(organizationId, key, status, stored(body)).then(() => body))),
      catchError((error) => from(this.idempotency.release(organizationId, key).then(() => Promise.reject(error)))),
    );
  }
}
