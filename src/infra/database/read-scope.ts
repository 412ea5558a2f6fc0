import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner, ReplicationMode } from 'typeorm';

/**
 * Which database a piece of work reads: the primary unless it runs inside `onReplica` (the read routing of a
 * GET request, common/read-routing). Carried by AsyncLocalStorage, so no repository or service changes: every
 * query a GET handler makes, through any repository, follows its request's choice.
 */
const scope = new AsyncLocalStorage<{ replica: true }>();

export function onReplica<T>(fn: () => T): T {
  return scope.run({ replica: true }, fn);
}

/**
 * An error the replica raised that the primary would not: it is unreachable or restarting (no SQLSTATE, class
 * 08 or 57), it refuses a write (25006: a handler behind a GET that writes), or a recovery conflict cancelled the
 * statement (40001). Such a statement had no effect, so running it again on the primary is safe.
 */
export function isReplicaFailure(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57') || code === '25006' || code === '40001';
}

/**
 * Makes `dataSource` send the reads of work inside `onReplica` to its replica (TypeORM's `slave` pool), while
 * `usable()` says the replica may serve: a transaction still runs on the primary (it may write or lock rows),
 * and a statement the replica fails with `isReplicaFailure` is run again on the primary (`onFallback` counts it).
 */
export function routeReads(dataSource: DataSource, usable: () => boolean, onFallback: () => void): void {
  const create = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode: ReplicationMode = 'master'): QueryRunner => {
    if (mode !== 'master' || !scope.getStore() || !usable()) return create(mode);
    const runner = create('slave');
    const startTransaction = runner.startTransaction.bind(runner);
    runner.startTransaction = (isolation) => {
      // Switched before the runner holds a connection, so the transaction's is taken from the primary's pool.
      const internals = runner as unknown as { mode: ReplicationMode; databaseConnection?: unknown };
      if (!internals.databaseConnection) internals.mode = 'master';
      return startTransaction(isolation);
    };
    const query = runner.query.bind(runner) as QueryRunner['query'];
    runner.query = (async (...args: Parameters<QueryRunner['query']>) => {
      try {
        return await query(...args);
      } catch (error) {
        if (runner.getReplicationMode() !== 'slave' || runner.isTransactionActive || !isReplicaFailure(error)) {
          throw error;
        }
        onFallback();
        const primary = create('master');
        try {
          return await primary.query(...args);
        } finally {
          await primary.release();
        }
      }
    }) as QueryRunner['query'];
    return runner;
  };
}
