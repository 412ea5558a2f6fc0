import { Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import * as pg from 'pg';

/**
 * Work whose connection requests go to the head of the PostgreSQL pool's line: an event's way to its webhooks (the
 * outbox relay, the event's fan-out, the delivery attempts) and a campaign's step. In one process serving
 * requests, dialing and deliveries, every statement waits for a pool connection in one first-come line; a delivery
 * makes several short round trips, each one queued behind the writes that came in meanwhile, so its latency was
 * mostly that wait (BENCHMARKS.md). Carried by AsyncLocalStorage, so every statement the marked work runs, through
 * any repository, keeps its place.
 */
const scope = new AsyncLocalStorage<true>();

export function firstInLine<T>(fn: () => T): T {
  return scope.run(true, fn);
}

/** A waiter the marked work queued: the ones after it in line were not. */
const MARKED = Symbol('firstInLine');

interface Waiter {
  [MARKED]?: true;
}

/**
 * pg's pool, with a marked request placed after the marked ones already waiting and before every other waiter.
 * pg-pool keeps its waiters in a private array (`_pendingQueue`) that `connect` appends to synchronously; where a
 * pool does not have one (another pg-pool version), requests keep pg's own order (`reordering` says which).
 */
export class FirstInLinePool extends pg.Pool {
  readonly reordering: boolean;

  constructor(config?: pg.PoolConfig) {
    super(config);
    this.reordering = Array.isArray(this.waiters());
    if (!this.reordering) {
      new Logger(FirstInLinePool.name).warn('pg-pool keeps no waiter array here: webhook delivery waits in line');
    }
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(...args: unknown[]): unknown {
    const waiters = this.reordering && scope.getStore() ? this.waiters() : undefined;
    const before = waiters?.length ?? 0;
    const result = (super.connect as (...a: unknown[]) => unknown).apply(this, args);
    // Queued (no idle connection and no room for a new one): the request is the last waiter; move it forward.
    if (waiters && waiters.length === before + 1) {
      const waiter = waiters.pop() as Waiter;
      waiter[MARKED] = true;
      let at = 0;
      while (at < waiters.length && waiters[at][MARKED]) at++;
      waiters.splice(at, 0, waiter);
    }
    return result;
  }

  private waiters(): Waiter[] | undefined {
    const queue = (this as unknown as { _pendingQueue?: unknown })._pendingQueue;
    return Array.isArray(queue) ? (queue as Waiter[]) : undefined;
  }
}

/** The pg module as TypeORM's `driver` option, its pools first-in-line ones. */
export const firstInLineDriver: typeof pg = Object.create(pg, { Pool: { value: FirstInLinePool } });
