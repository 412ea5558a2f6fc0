import { DataSource, DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../../src/infra/database/data-source-options';
import { createTestDatabase } from './databases';

/**
 * For medium tests (a repository or command against real PostgreSQL, no HTTP): a DataSource on a fresh clone of
 * the migrated template, knowing only the entities under test. `close` destroys it and drops the database.
 */
export async function openTestDataSource(
  entities: DataSourceOptions['entities'],
): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  const db = await createTestDatabase();
  const dataSource = new DataSource(dataSourceOptions(db.url, entities, 12));
  await dataSource.initialize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await db.drop();
    },
  };
}
