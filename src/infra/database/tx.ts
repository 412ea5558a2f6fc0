import type { EntityManager } from 'typeorm';

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
}

/** Runs `work` in a transaction of `on` (committed when it resolves, rolled back when it throws). */
export function inTransaction<T>(on: Transactional, work: (tx: Tx) => Promise<T>): Promise<T> {
  return on.transaction((manager) => work(manager as Tx));
}
