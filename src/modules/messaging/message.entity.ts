import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';
import { MessageDirection } from './conversation.entity';
import { MessageContext, MessageReferral } from './message-origin';
import { MessagePayload } from './message-payload';
import type { ResumableSend } from './providers/messaging-provider';

/** `agent` (extension): a person's reply from the console, told apart from the bot's (README "Chat agent"). */
export const SENDER_TYPES = ['user', 'bot', 'agent'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];
/** What the provider reported last; `accepted` means the provider took the message and nothing more is known yet. */
export const DELIVERY_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

@Entity('messages')
@Index('ix_messages_conversation_timestamp', ['conversationId', 'timestamp', 'id'])
// The provider may deliver one webhook more than once: its message id is recorded once per account.
@Index('ux_messages_account_provider_id', ['accountId', 'providerMessageId'], { unique: true })
// Outbound media by id must name a file the account received (MessagesRepository.receivedMedia).
@Index('ix_messages_account_media', ['accountId', 'mediaId'], { where: 'media_id IS NOT NULL' })
// The outbound messages not yet taken by the provider, oldest first: what the send sweeper reads.
@Index('ix_messages_unsent', ['timestamp'], {
  where: "direction = 'outbound' AND delivery_status = 'accepted' AND provider_message_id IS NULL",
})
export class Message {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') conversationId: string;
  @Column('uuid') accountId: string;
  @Column('text') direction: MessageDirection;
  @Column('text') senderType: SenderType;
  /** `text`, `template`, or the kind of an inbound message (`image`, `location`, ...: MESSAGE_TYPES). */
  @Column('text') messageType: string;
  @Column('text', { default: '' }) text: string;
  @Column('text', { nullable: true }) mediaUrl: string | null;
  @Column('text', { nullable: true }) mediaCaption: string | null;
  @Column('text', { nullable: true }) deliveryStatus: DeliveryStatus | null;
  /** The provider's numeric error code when it reported `failed` (WhatsApp: Meta's code, e.g. 131047). */
  @Column('integer', { nullable: true }) errorCode: number | null;
  /** The provider's title of that error. The column keeps its first name (it held free text before codes). */
  @Column('text', { name: 'delivery_error', nullable: true }) errorTitle: string | null;
  /** The provider's id of an inbound media file; the file itself is fetched from the provider on demand. */
  @Column('text', { nullable: true }) mediaId: string | null;
  /** What the message carries beyond text, typed per messageType (location, reaction, media details, ...). */
  @Column('jsonb', { nullable: true }) payload: MessagePayload | null;
  /** Inbound: the message it replies to or was forwarded as (message-origin.ts); null otherwise. */
  @Column('jsonb', { nullable: true }) context: MessageContext | null;
  /** Inbound: the ad or post the user clicked to write; null otherwise. */
  @Column('jsonb', { nullable: true }) referral: MessageReferral | null;
  /**
   * The provider's id; null for an outbound message not yet taken by the provider (stored before it is asked, sent
   * from the queue, or waiting for the status webhook that names it).
   */
  @Column('text', { nullable: true }) providerMessageId: string | null;
  /**
   * Outbound, until the provider names the message: the provider's own request (ResumableSend: for WhatsApp the
   * Graph body, bounded by the message's own bounds, and the number it goes from), from which the sweeper rebuilds
   * a send whose job was lost (SendMessageSweepJob); cleared once the message is taken or failed.
   */
  @Column('jsonb', { nullable: true }) pendingSend: ResumableSend | null;
  /** How many times the sweeper rebuilt this message's send (bounded: SEND_SWEEPS_MAX). */
  @Column('integer', { default: 0 }) sendSweeps: number;
  @Column('text', { nullable: true }) templateName: string | null;
  @Column('text', { nullable: true }) templateLanguage: string | null;
  /** When the message was sent (outbound) or written by the user (inbound, as the provider reports it). */
  @Column({ type: 'timestamptz', precision: 3 }) timestamp: Date;
  /** false: sent with a `test` key, so through the simulator whatever MESSAGING_PROVIDER says. */
  @Column('boolean', { default: true }) livemode: boolean;
  @CreatedAt() createdAt: Date;
}
