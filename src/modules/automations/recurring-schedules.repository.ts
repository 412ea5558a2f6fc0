import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ReferenceTarget } from '../../common/references/reference-registry';
import { queryEntities } from '../../infra/database/entity-rows';
import { Tx } from '../../infra/database/tx';
import { RecurringSchedule, RecurringScheduleStatus } from './recurring-schedule.entity';

/** The SQL of `recurring_schedules`: the admin API's records and the dialer's runs. */
@Injectable()
export class RecurringSchedulesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** In the transaction that locked what the schedule names; the row as stored (its `createdAt` filled). */
  insert(tx: Tx, fields: Omit<RecurringSchedule, 'id' | 'createdAt'>): Promise<RecurringSchedule> {
    return tx.save(tx.create(RecurringSchedule, { id: uuidv7(), ...fields }));
  }

  find(id: string): Promise<RecurringSchedule | null> {
    return this.dataSource.manager.findOneBy(RecurringSchedule, { id });
  }

  /** The organization's schedules, newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<RecurringSchedule[]> {
    return this.dataSource.manager.find(RecurringSchedule, {
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /**
   * Sets the schedule's status (and its next occurrence, when given) if it is the organization's (any
   * organization's when `organizationId` is null); the row after, or null when there is no such schedule.
   */
  async setStatus(
    organizationId: string | null,
    id: string,
    status: RecurringScheduleStatus,
    nextOccurrenceAt?: Date | null,
  ): Promise<RecurringSchedule | null> {
    const where = organizationId === null ? { id } : { id, organizationId };
    const { affected } = await this.dataSource.manager.update(RecurringSchedule, where, {
      status,
      ...(nextOccurrenceAt !== undefined ? { nextOccurrenceAt } : {}),
    });
    return affected ? this.dataSource.manager.findOneByOrFail(RecurringSchedule, where) : null;
  }

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
