import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One dial of one entry. The unique (entry, attempt) pair is what makes each attempt happen once, whatever
 * number of engines race for the entry.
 */
@Entity('campaign_attempts')
@Index('ux_campaign_attempts_entry_attempt', ['entryId', 'attempt'], { unique: true })
@Index('ix_campaign_attempts_campaign_at', ['campaignId', 'at'])
@Index('ix_campaign_attempts_number_at', ['organizationId', 'to', 'at'])
@Index('ix_campaign_attempts_call', ['callId'])
export class CampaignAttempt {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') entryId: string;
  @Column('uuid') campaignId: string;
  @Column('uuid') organizationId: string;
  @Column('text') to: string;
  @Column('int') attempt: number;
  @Column('uuid') callId: string;
  @Column('text', { nullable: true }) endedReason: string | null;
  @Column({ type: 'timestamptz', precision: 3 }) at: Date;
}
