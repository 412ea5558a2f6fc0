import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

export const RECURRING_SCHEDULE_STATUSES = ['active', 'paused'] as const;
export type RecurringScheduleStatus = (typeof RECURRING_SCHEDULE_STATUSES)[number];

/**
 * A dashboard-managed schedule that places calls with a case and an outbound assistant. Only its references
 * matter to the API: active or paused, it blocks deleting what it names.
 */
@Entity('recurring_schedules')
@Index('ix_recurring_schedules_case', ['caseId'])
@Index('ix_recurring_schedules_assistant', ['assistantConfigId'])
export class RecurringSchedule {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) caseId: string | null;
  @Column('uuid', { nullable: true }) assistantConfigId: string | null;
  @Column('text') status: RecurringScheduleStatus;
  @CreatedAt() createdAt: Date;
}
