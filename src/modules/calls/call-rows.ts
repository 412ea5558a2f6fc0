import { EntityManager } from 'typeorm';
import { Call } from './call.entity';

/**
 * Runs SQL that returns `calls` rows (`UPDATE ... RETURNING *`) and maps them to entities by the column
 * metadata, so status transitions can be single conditional statements (race-safe) yet yield typed calls.
 */
export async function callRows(manager: EntityManager, sql: string, params: unknown[]): Promise<Call[]> {
  const result: unknown = await manager.query(sql, params);
  // pg returns [rows, count] for UPDATE ... RETURNING through TypeORM, and rows alone for SELECT.
  const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Record<string, unknown>[];
  const columns = manager.connection.getMetadata(Call).columns;
  return rows.map((row) => {
    const call = new Call();
    for (const column of columns) {
      (call as unknown as Record<string, unknown>)[column.propertyName] = row[column.databaseName];
    }
    return call;
  });
}
