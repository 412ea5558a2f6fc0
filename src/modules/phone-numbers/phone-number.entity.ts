import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';
import type { VoicePlatform } from '../../infra/config/platforms';

export interface NumberFallback {
  platform: VoicePlatform;
  providerId: string;
}

/** A number assigned to an organization; one of them is the caller ID (`from`) of every call. */
@Entity('phone_numbers')
@Index(['organizationId', 'number'], { unique: true })
export class PhoneNumber {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  /** E.164. A number belongs to at most one organization. */
  @Index({ unique: true }) @Column('text') number: string;
  @Column('text', { default: '' }) label: string;
  /** The voice platform's id for the number (Vapi `phoneNumberId`). */
  @Column('text', { nullable: true }) providerId: string | null;
  /** The voice platform its calls are placed on (live calls; a test-world call always plays on the simulator). */
  @Column('text', { default: 'simulator' }) platform: VoicePlatform;
  /**
   * The same number imported on a second platform: a call its platform fails to place (unreachable, timeout, 5xx)
   * is placed there once (docs/providers.md, "Failover").
   */
  @Column('jsonb', { nullable: true }) fallback: NumberFallback | null;
  /**
   * Who carries the number's calls on the platform, when it says (Vapi's number `provider`: `twilio`, `vonage`,
   * `vapi`, `telnyx`, `byo-phone-number`), recorded when the number is imported; null when not imported. Decides
   * whether its calls may make warm transfers (docs/tools.md, "Transfers").
   */
  @Column('text', { nullable: true }) telephony: string | null;
  @CreatedAt() createdAt: Date;
}
