import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

/** A dashboard-managed follow-up campaign; it blocks deleting the case and assistant it names. */
@Entity('follow_up_campaigns')
@Index('ix_follow_up_campaigns_case', ['caseId'])
@Index('ix_follow_up_campaigns_assistant', ['assistantConfigId'])
export class FollowUpCampaign {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) caseId: string | null;
  @Column('uuid', { nullable: true }) assistantConfigId: string | null;
  @CreatedAt() createdAt: Date;
}
