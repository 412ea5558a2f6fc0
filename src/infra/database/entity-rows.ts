import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Maps rows of one table to entities through its column metadata and the driver's own conversions, so
 * hand-written SQL still yields typed entities. Accepts rows as PostgreSQL returns them (`RETURNING *`) and as
 * JSON objects (`row_to_json`, `json_agg`), whose timestamps arrive as ISO strings and become Dates here.
 */
export function toEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: readonly Record<string, unknown>[],
): T[] {
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  return rows.map((row) => {
    const entity = metadata.create() as T;
    for (const column of metadata.columns) {
      column.setEntityValue(entity, driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return entity;
  });
}

/** Runs SQL returning rows of one table (`SELECT *`, `UPDATE ... RETURNING *`) and maps them to entities. */
export async function queryEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const result: unknown = await manager.query(sql, params);
  // pg returns [rows, count] for UPDATE ... RETURNING through TypeORM, and rows alone for SELECT.
  const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Record<string, unknown>[];
  return toEntities(manager, target, rows);
}
