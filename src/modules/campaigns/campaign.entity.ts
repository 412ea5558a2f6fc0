import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { VoicemailPolicy } from '../call-outcomes/voicemail-policy';
import type { CampaignVariant } from './campaign-variants';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Days of week and local hours in which a contact may be called; `timezone` for contacts of unknown zone. */
export interface CallingWindow {
  days: Weekday[];
  /** `HH:MM`, local. */
  start: string;
  /** `HH:MM`, local; exclusive. Earlier than `start` means the window runs past midnight. */
  end: string;
  timezone: string;
}

export interface RetryPolicy {
  /** endedReason values that earn another attempt. */
  on: string[];
  delaySeconds: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

export type CampaignAudience = { groupId: string } | { contactIds: string[] } | { rows: number };

/** What placed a campaign other than POST /campaigns: an occurrence of a recurring schedule, or a follow-up. */
export type CampaignSourceType = 'recurring_schedule' | 'follow_up';

/** A batch of outbound calls (extension, docs/contracts/dialer.md). `kind` tells a public campaign from the admin dialers. */
@Entity('campaigns')
@Index('ix_campaigns_org_created', ['organizationId', 'createdAt', 'id'])
@Index('ix_campaigns_active', ['status'], { where: `status IN ('scheduled', 'running')` })
@Index('ux_campaigns_source', ['sourceId', 'sourceKey'], { unique: true, where: 'source_id IS NOT NULL' })
export class Campaign {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('text') status: CampaignStatus;
  @Column('text', { nullable: true }) pausedReason: string | null;
  /** The caller ID; with `fromNumbers`, the first of them. */
  @Column('text') callFrom: string;
  /** Extension (docs/number-health.md): the numbers calls are spread over; null: `callFrom` alone. */
  @Column('text', { array: true, nullable: true }) fromNumbers: string[] | null;
  /** Extension: calls a number places per day (in the window's zone), across the organization; null: no cap. */
  @Column('int', { nullable: true }) maxCallsPerNumberPerDay: number | null;
  @Column('uuid', { nullable: true }) caseId: string | null;
  /** Extension: the case versions its entries are split between (an A/B test); null: the case's current one. */
  @Column('jsonb', { nullable: true }) variants: CampaignVariant[] | null;
  @Column('uuid', { nullable: true }) assistantConfigId: string | null;
  @Column('text', { nullable: true }) firstMessage: string | null;
  /** What the audience was given as (a group, contact ids, or the count of rows), for display. */
  @Column('jsonb') audience: CampaignAudience;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) startAt: Date | null;
  @Column('jsonb', { nullable: true }) window: CallingWindow | null;
  @Column('int', { nullable: true }) maxConcurrent: number | null;
  @Column('int', { nullable: true }) callsPerMinute: number | null;
  @Column('jsonb', { nullable: true }) retry: RetryPolicy | null;
  /** Extension: what its calls do on reaching an answering machine (docs/tools.md); null: not set here. */
  @Column('jsonb', { nullable: true }) voicemail: VoicemailPolicy | null;
  /** false when a test key made it (or it follows up a test call): its calls are test calls (README: test mode). */
  @Column('boolean', { default: true }) livemode: boolean;
  @Column('text', { nullable: true }) sourceType: CampaignSourceType | null;
  @Column('uuid', { nullable: true }) sourceId: string | null;
  /**
   * The schedule occurrence (ISO instant) or the call followed up: unique per source, so each occurrence or
   * follow-up places its campaign once however many schedulers race for it.
   */
  @Column('text', { nullable: true }) sourceKey: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
