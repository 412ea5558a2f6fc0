import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';
import { MessageDirection } from './conversation.entity';

export type SenderType = 'user' | 'bot';
/** What the provider reported last; `accepted` means the provider took the message and nothing more is known yet. */
export const DELIVERY_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

@Entity('messages')
@Index('ix_messages_conversation_timestamp', ['conversationId', 'timestamp', 'id'])
// The provider may deliver one webhook more than once: its message id is recorded once per account.
@Index('ux_messages_account_provider_id', ['accountId', 'providerMessageId'], { unique: true })
export class Message {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') conversationId: string;
  @Column('uuid') accountId: string;
  @Column('text') direction: MessageDirection;
  @Column('text') senderType: SenderType;
  /** `text`, `template`, or the provider's type of an inbound media message (`image`, `document`, ...). */
  @Column('text') messageType: string;
  @Column('text', { default: '' }) text: string;
  @Column('text', { nullable: true }) mediaUrl: string | null;
  @Column('text', { nullable: true }) mediaCaption: string | null;
  @Column('text', { nullable: true }) deliveryStatus: DeliveryStatus | null;
  /** Why the provider reported `failed`. */
  @Column('text', { nullable: true }) deliveryError: string | null;
  @Column('text') providerMessageId: string;
  @Column('text', { nullable: true }) templateName: string | null;
  @Column('text', { nullable: true }) templateLanguage: string | null;
  /** When the message was sent (outbound) or written by the user (inbound, as the provider reports it). */
  @Column({ type: 'timestamptz', precision: 3 }) timestamp: Date;
  /** false: sent with a `test` key, so through the simulator whatever MESSAGING_PROVIDER says. */
  @Column('boolean', { default: true }) livemode: boolean;
  @CreatedAt() createdAt: Date;
}
