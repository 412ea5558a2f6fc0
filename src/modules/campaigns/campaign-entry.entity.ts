import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

export const ENTRY_STATUSES = ['pending', 'in_progress', 'done', 'skipped'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** One contact of a campaign: called until an attempt ends without earning a retry, or skipped. */
@Entity('campaign_entries')
@Index('ix_campaign_entries_due', ['campaignId', 'status', 'nextAttemptAt'])
@Index('ix_campaign_entries_page', ['campaignId', 'createdAt', 'id'])
export class CampaignEntry {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') campaignId: string;
  @Column('uuid') organizationId: string;
  @Column('text') to: string;
  @Column('uuid', { nullable: true }) contactId: string | null;
  @Column('jsonb', { nullable: true }) variableValues: Record<string, string> | null;
  /** Extension: the case version its calls use, assigned once from the campaign's variants; null: the current one. */
  @Column('integer', { nullable: true }) caseVersion: number | null;
  /** IANA zone the calling window is evaluated in (contact field, else from the number, else the campaign's). */
  @Column('text') timeZone: string;
  @Column('text') status: EntryStatus;
  @Column('text', { nullable: true }) skipReason: string | null;
  /** A sentence beside `skipReason` naming the field or rule that made the entry impossible to call. */
  @Column('text', { nullable: true }) skipDetail: string | null;
  /** Attempts placed so far; the next attempt's number is attempts + 1. */
  @Column('int', { default: 0 }) attempts: number;
  /** Attempts that never reached a person because the organization was out of minutes or plan (not counted). */
  @Column('int', { default: 0 }) blockedAttempts: number;
  /** Not before this time (retry delay, next window opening). */
  @Column({ type: 'timestamptz', precision: 3 }) nextAttemptAt: Date;
  @Column('uuid', { nullable: true }) currentCallId: string | null;
  @Column('text', { nullable: true }) lastEndedReason: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
