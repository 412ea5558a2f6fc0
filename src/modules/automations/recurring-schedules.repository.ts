import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ReferenceTarget } from '../../common/references/reference-registry';
import { queryEntities } from '../../infra/database/entity-rows';
import { RecurringSchedule } from './recurring-schedule.entity';

/** The dialer's SQL of `recurring_schedules`. */
@Injectable()
export class RecurringSchedulesRepository {
  /** Active dialing schedules whose occurrence is due, locked for this scheduler (others skip them). */
  lockDue(m: EntityManager, limit: number): Promise<RecurringSchedule[]> {
    return queryEntities(
      m,
      RecurringSchedule,
      `SELECT * FROM recurring_schedules
        WHERE status = 'active' AND rrule IS NOT NULL AND next_occurrence_at <= now()
        ORDER BY next_occurrence_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  async setNextOccurrence(m: EntityManager, id: string, next: Date | null): Promise<void> {
    await m.query(`UPDATE recurring_schedules SET next_occurrence_at = $2 WHERE id = $1`, [id, next]);
  }

  /** Schedules that run with the case or outbound assistant (they block its delete). */
  countReferencing(tx: EntityManager, organizationId: string, target: ReferenceTarget): Promise<number> {
    return tx.countBy(RecurringSchedule, { organizationId, ...target });
  }
}
