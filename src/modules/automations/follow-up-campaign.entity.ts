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
  /**
   * Extension (the dialer): when set with a caller ID, an outbound call of the organization (of `triggerCaseId`
   * when set) that ends with one of `triggerOn` is followed by another call to the same number after the delay.
   */
  @Column('int', { nullable: true }) delaySeconds: number | null;
  @Column('text', { array: true, default: () => "'{customer-did-not-answer,voicemail-reached}'" }) triggerOn: string[];
  @Column('uuid', { nullable: true }) triggerCaseId: string | null;
  @Column('text', { nullable: true }) callFrom: string | null;
  /**
   * Extension (the dialer): when set, a triggering call's number is sent this approved template (with these
   * variables) in the organization's conversation with it, when one exists; see FollowUpMessage for each outcome.
   */
  @Column('text', { nullable: true }) messageTemplateName: string | null;
  @Column('text', { nullable: true }) messageTemplateLanguage: string | null;
  @Column('jsonb', { nullable: true }) messageVariables: Record<string, string> | null;
  @CreatedAt() createdAt: Date;
}
