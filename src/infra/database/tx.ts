import type { EntityManager } from 'typeorm';

/**
 * The manager of an open transaction, passed explicitly wherever a transaction crosses a module: a callee that
 * takes a `Tx` runs inside its caller's transaction and never opens a connection of its own (a second connection
 * taken while the caller's is held can exhaust the pool and deadlock it).
 */
export type Tx = EntityManager;
