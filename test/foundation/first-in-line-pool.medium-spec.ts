import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/infra/database/data-source-options';
import { FirstInLinePool, firstInLine } from '../../src/infra/database/first-in-line';
import { createTestDatabase } from '../support/databases';
import { waitUntil } from '../support/wait-until';

/**
 * The pool order against real PostgreSQL: with every connection taken, a request made inside `firstInLine` is
 * served before the unmarked ones that were waiting, and marked requests keep their own order among themselves.
 */
describe('FirstInLinePool (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  /** Each request, once it has a connection, notes its name, runs a statement and gives the connection back. */
  function request(pool: FirstInLinePool, served: string[], name: string): Promise<void> {
    return pool.connect().then(async (client) => {
      served.push(name);
      await client.query('SELECT 1');
      client.release();
    });
  }

  it('serves marked requests before earlier unmarked ones, in their own order', async () => {
    const pool = new FirstInLinePool({ connectionString: database.url, max: 1 });
    try {
      expect(pool.reordering).toBe(true);
      const held = await pool.connect();
      const served: string[] = [];
      const requests = [
        request(pool, served, 'plain 1'),
        request(pool, served, 'plain 2'),
        firstInLine(() => request(pool, served, 'marked 1')),
        request(pool, served, 'plain 3'),
        firstInLine(() => request(pool, served, 'marked 2')),
      ];
      expect(pool.waitingCount).toBe(5);
      held.release();
      await Promise.all(requests);
      expect(served).toEqual(['marked 1', 'marked 2', 'plain 1', 'plain 2', 'plain 3']);
    } finally {
      await pool.end();
    }
  });

  it('is the pool TypeORM uses, so a marked statement overtakes the queued ones', async () => {
    const dataSource = new DataSource(dataSourceOptions(database.url, [], 1));
    await dataSource.initialize();
    try {
      const runner = dataSource.createQueryRunner();
      // Holds the pool's one connection until released.
      await runner.connect();
      const pool = (dataSource.driver as unknown as { master: FirstInLinePool }).master;
      expect(pool).toBeInstanceOf(FirstInLinePool);
      const served: string[] = [];
      const statement = (name: string) => dataSource.query('SELECT 1').then(() => served.push(name));
      // Each asks for its connection a few ticks after the call: the marked one asks once the plain one waits.
      const plain = statement('plain');
      await waitUntil('the plain statement waiting', () => pool.waitingCount === 1);
      const marked = firstInLine(() => statement('marked'));
      await waitUntil('both statements waiting', () => pool.waitingCount === 2);
      await runner.release();
      const statements = [plain, marked];
      await Promise.all(statements);
      expect(served).toEqual(['marked', 'plain']);
    } finally {
      await dataSource.destroy();
    }
  });
});
