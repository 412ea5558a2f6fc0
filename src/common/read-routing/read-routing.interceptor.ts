import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Observable, catchError, from, mergeMap } from 'rxjs';
import { onReplica } from '../../infra/database/read-scope';
import { ReplicaReads } from '../../infra/database/replica-reads';
import { ACCESS_KEY, Access } from '../auth/access.decorators';
import { ReadAfterWrite } from './read-after-write';

const READS = new Set(['GET', 'HEAD']);

/**
 * With a read replica (DATABASE_READ_URL), the GET routes of the public and admin APIs read from it, unless the
 * request's writer (its API key, or the admin) wrote within READ_AFTER_WRITE_MS or the replica lags or is down;
 * every other request writes and marks its writer. Runs after the access guard (which reads the key on the
 * primary, so a revocation is seen at once) and wraps the whole handler, whose queries follow the choice
 * through read-scope.ts. Health, docs and provider callbacks are left alone. Registered only when a replica is
 * configured (AppModule): without one there is nothing to route.
 */
@Injectable()
export class ReadRoutingInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly replica: ReplicaReads,
    private readonly marks: ReadAfterWrite,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const writer =
      access?.kind === 'scope' && request.auth
        ? `key:${request.auth.apiKeyId}`
        : access?.kind === 'admin'
          ? 'admin'
          : null;
    if (!writer) return next.handle();
    if (!READS.has(request.method)) {
      // Marked after the handler (its writes committed) and before the answer leaves, failed or not: a write
      // answered with an error may still have committed part of its work elsewhere (an outbox row, a log).
      const mark = () => this.marks.wrote(writer);
      return next.handle().pipe(
        mergeMap(async (value) => {
          await mark();
          return value;
        }),
        catchError(async (error: unknown) => {
          await mark().catch(() => undefined);
          throw error;
        }),
      );
    }
    return from(this.marks.wroteRecently(writer)).pipe(
      mergeMap((recent) => {
        if (recent) this.replica.fallback('read_after_write');
        if (recent || !this.replica.usable()) return next.handle();
        this.replica.replicaRead();
        return new Observable<unknown>((subscriber) => onReplica(() => next.handle().subscribe(subscriber)));
      }),
    );
  }
}
