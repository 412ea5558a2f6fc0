import type { EntityManager } from 'typeorm';
import { afterCommit, inTransaction } from './tx';

/** A data source whose transactions run the work on one manager; a nested call runs on the same one, as TypeORM's. */
function fakeDataSource() {
  const manager = {
    transaction: <T>(work: (m: EntityManager) => Promise<T>) => work(manager as unknown as EntityManager),
  };
  return manager;
}

describe('afterCommit', () => {
  it('runs once the transaction has committed, once however often it was asked for', async () => {
    const ran: string[] = [];
    const wake = () => ran.push('wake');
    await inTransaction(fakeDataSource(), async (tx) => {
      afterCommit(tx, wake);
      afterCommit(tx, wake);
      ran.push('work');
    });
    expect(ran).toEqual(['work', 'wake']);
  });

  it('never runs when the transaction rolls back, nor in the next transaction', async () => {
    const ran: string[] = [];
    const source = fakeDataSource();
    await expect(
      inTransaction(source, async (tx) => {
        afterCommit(tx, () => ran.push('wake'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await inTransaction(source, async () => undefined);
    expect(ran).toEqual([]);
  });

  it('asked for inside a nested transaction, waits for the outermost commit', async () => {
    const ran: string[] = [];
    await inTransaction(fakeDataSource(), async (tx) => {
      await inTransaction(tx, async (inner) => afterCommit(inner, () => ran.push('wake')));
      ran.push('outer work');
    });
    expect(ran).toEqual(['outer work', 'wake']);
  });

  it('runs at once for a manager in no transaction', () => {
    const ran: string[] = [];
    afterCommit({} as EntityManager, () => ran.push('wake'));
    expect(ran).toEqual(['wake']);
  });
});
