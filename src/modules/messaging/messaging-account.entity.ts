import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { MessagingPlatform } from '../../infra/config/platforms';

export const MESSAGING_ACCOUNT_STATUSES = ['active', 'disconnected', 'error', 'pending_setup'] as const;
export type MessagingAccountStatus = (typeof MESSAGING_ACCOUNT_STATUSES)[number];

/** A business messaging account (a WhatsApp Business phone number) connected by the organization in the dashboard. */
@Entity('messaging_accounts')
@Index('ix_messaging_accounts_org_created', ['organizationId', 'createdAt', 'id'])
// The provider's webhook names the receiving number by its phone-number id only, so it must identify one account.
@Index('ux_messaging_accounts_phone_number_id', ['phoneNumberId'], {
  unique: true,
  where: 'phone_number_id IS NOT NULL',
})
export class MessagingAccount {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  /** The world of its conversations and messages; a test account always uses the messaging simulator. */
  @Column('boolean', { default: true }) livemode: boolean;
  /** The messaging platform that carries its messages, fixed when the account is made (a test account: the simulator). */
  @Column('text', { default: 'simulator' }) platform: MessagingPlatform;
  @Column('text') status: MessagingAccountStatus;
  @Column('text', { nullable: true }) statusMessage: string | null;
  /** WhatsApp Business Account id. */
  @Column('text', { nullable: true }) wabaId: string | null;
  /** The provider's id of the business phone number; messages are sent through `/{phoneNumberId}/messages`. */
  @Column('text', { nullable: true }) phoneNumberId: string | null;
  @Column('text') displayPhoneNumber: string;
  @Column('text') verifiedName: string;
  @Column('text', { default: 'UNKNOWN' }) qualityRating: string;
  @Column('integer', { default: 0 }) messagesSent: number;
  @Column('integer', { default: 0 }) messagesReceived: number;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) lastMessageAt: Date | null;
  /**
   * The account's own provider access token, sealed with SECRETS_KEY (src/infra/secrets/secret-box.ts); null: the
   * process-wide token serves it. Never returned by any route.
   */
  @Column('text', { nullable: true }) accessTokenSealed: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
