import type { DataSource } from 'typeorm';
import type { Tx } from '../database/tx';
import { fakeOf } from './fake-of';

/** A statement run on a fake manager, as given. */
export interface FakeStatement {
  sql: string;
  params: unknown[];
}

/** What a fake transaction saw: its statements, and whether it committed or rolled back. */
export interface FakeTransaction {
  tx: Tx;
  statements: FakeStatement[];
  outcome: 'open' | 'committed' | 'rolled back';
}

/**
 * A DataSource for unit specs of commands whose SQL lives in repositories (faked too): `transaction` runs the work
 * on a fake Tx and records whether it committed (the work resolved) or rolled back (it threw), and `tx.query` takes
 * the statements a shared mechanism runs directly (advisory locks) and answers nothing. Repositories' own
 * statements are checked against PostgreSQL by the medium specs, never here.
 */
export class FakeDataSource {
  readonly transactions: FakeTransaction[] = [];
  /** Statements run outside any transaction (`dataSource.manager`). */
  readonly managerStatements: FakeStatement[] = [];
  readonly manager = fakeOf<Tx>({ query: this.recorder(this.managerStatements) } as Partial<Tx>, 'manager');

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const statements: FakeStatement[] = [];
    const tx: Tx = fakeOf<Tx>(
      {
        query: this.recorder(statements),
        // A nested transaction (a savepoint) runs on the same Tx.
        transaction: (inner: (m: Tx) => Promise<unknown>) => inner(tx),
      } as unknown as Partial<Tx>,
      'tx',
    );
    const record: FakeTransaction = { tx, statements, outcome: 'open' };
    this.transactions.push(record);
    try {
      const result = await work(tx);
      record.outcome = 'committed';
      return result;
    } catch (error) {
      record.outcome = 'rolled back';
      throw error;
    }
  }

  /** As the DataSource a command's constructor takes. */
  asDataSource(): DataSource {
    return this as unknown as DataSource;
  }

  get committed(): number {
    return this.transactions.filter((t) => t.outcome === 'committed').length;
  }

  private recorder(into: FakeStatement[]) {
    return (sql: string, params: unknown[] = []) => {
      into.push({ sql: sql.replace(/\s+/g, ' ').trim(), params });
      return Promise.resolve([]);
    };
  }
}
