import type { EntityManager, QueryRunner } from 'typeorm';

declare const OPEN_TRANSACTION: unique symbol;

/**
 * The manager of an open transaction, passed explicitly wherever a transaction crosses a module: a callee that
 * takes a `Tx` runs inside its caller's transaction and never opens a connection of its own (a second connection
 * taken while the caller's is held can exhaust the pool and deadlock it). Branded, and only `inTransaction`
 * makes one, so a bare EntityManager (`dataSource.manager`, which runs each statement on its own) does not type
 * where a callee relies on its statements committing together or on the locks it takes being held.
 */
export type Tx = EntityManager & { readonly [OPEN_TRANSACTION]: true };

/** Anything that opens a transaction: a DataSource, or a Tx (a nested call opens a savepoint). */
interface Transactional {
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
  readonly queryRunner?: QueryRunner;
}

/** What runs once the outermost transaction of a connection has committed, by its query runner. */
const committed = new WeakMap<QueryRunner, Set<() => void>>();

/** Runs `work` in a transaction of `on` (committed when it resolves, rolled back when it throws). */
export async function inTransaction<T>(on: Transactional, work: (tx: Tx) => Promise<T>): Promise<T> {
  // A savepoint inside an open transaction: what it asks to run after commit waits for the outermost commit.
  if (on.queryRunner?.isTransactionActive) return on.transaction((manager) => work(manager as Tx));
  let runner: QueryRunner | undefined;
  let after: Set<() => void> | undefined;
  try {
    const result = await on.transaction((manager) => {
      runner = manager.queryRunner;
      return work(manager as Tx);
    });
    after = committed.get(runner!);
    return result;
  } finally {
    if (runner) committed.delete(runner);
    if (after) for (const fn of after) fn();
  }
}

/**
 * Runs `fn` once `manager`'s outermost transaction has committed (never if it rolls back; once however often it is
 * asked for in one transaction), or at once when `manager` is in no transaction (each of its statements committed
 * on its own): for what must not be seen before the commit, and must not hold it up either. A savepoint rolled
 * back inside a transaction that commits does not cancel it, so `fn` must be harmless then.
 */
export function afterCommit(manager: EntityManager, fn: () => void): void {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return fn();
  const after = committed.get(runner);
  if (after) after.add(fn);
  else committed.set(runner, new Set([fn]));
}
