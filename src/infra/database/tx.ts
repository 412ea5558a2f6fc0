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

/**
 * The managers of the outermost transactions `inTransaction` has open, each with what is to run once it has
 * committed (a nested transaction runs on its outer one's manager, so its requests land there too).
 */
const open = new WeakMap<object, Set<() => void>>();

/** Runs `work` in a transaction of `on` (committed when it resolves, rolled back when it throws). */
export async function inTransaction<T>(on: Transactional, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (open.has(on)) return on.transaction((manager) => work(manager as Tx));
  let manager: EntityManager | undefined;
  let committed = false;
  try {
    const result = await on.transaction((m) => {
      manager = m;
      open.set(m, new Set());
      return work(m as Tx);
    });
    committed = true;
    return result;
  } finally {
    const after = manager && open.get(manager);
    if (manager) open.delete(manager);
    if (committed && after) for (const fn of after) fn();
  }
}

/**
 * Runs `fn` once `manager`'s outermost transaction has committed (never if it rolls back; once however often it is
 * asked for in one transaction), or at once when `manager` is in no transaction (each of its statements committed
 * on its own): for what must not be seen before the commit, and must not hold it up either. A savepoint rolled
 * back inside a transaction that commits does not cancel it, so `fn` must be harmless then.
 */
export function afterCommit(manager: EntityManager, fn: () => void): void {
  const after = open.get(manager);
  if (after) after.add(fn);
  else fn();
}
