import { EntityManager } from 'typeorm';
import { queryEntities } from '../../infra/database/entity-rows';
import { Call } from './call.entity';

/**
 * Runs SQL that returns `calls` rows (`UPDATE ... RETURNING *`) as entities, so status transitions can be single
 * conditional statements (race-safe) yet yield typed calls.
 */
export function callRows(manager: EntityManager, sql: string, params: unknown[]): Promise<Call[]> {
  return queryEntities(manager, Call, sql, params);
}
