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
@Index('ix_recurring_schedules_due', ['nextOccurrenceAt'], { where: `status = 'active' AND rrule IS NOT NULL` })
export class RecurringSchedule {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) caseId: string | null;
  @Column('uuid', { nullable: true }) assistantConfigId: string | null;
  @Column('text') status: RecurringScheduleStatus;
  /** Extension (the dialer): when set with a caller ID and an audience, each occurrence places a campaign. */
  @Column('text', { nullable: true }) rrule: string | null;
  @Column('text', { default: 'UTC' }) timeZone: string;
  @Column('text', { nullable: true }) callFrom: string | null;
  /** `{groupId}`, `{contactIds}` or `{rows}` as in POST /api/v1/campaigns. */
  @Column('jsonb', { nullable: true }) audience: Record<string, unknown> | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) nextOccurrenceAt: Date | null;
  @CreatedAt() createdAt: Date;
}
