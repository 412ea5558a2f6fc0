import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

export const CONVERSATION_STATUSES = ['active', 'handed_off', 'closed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type MessageDirection = 'inbound' | 'outbound';

/** One thread between a messaging account and one user phone. */
@Entity('conversations')
// A user is known by phone, by business-scoped user id, or both: each identifies one thread per account.
@Index('ux_conversations_account_user_phone', ['integrationId', 'waUserPhone'], {
  unique: true,
  where: "wa_user_phone <> ''",
})
@Index('ux_conversations_account_user_id', ['integrationId', 'waUserId'], {
  unique: true,
  where: 'wa_user_id IS NOT NULL',
})
@Index('ix_conversations_org_activity', ['organizationId', 'lastActivityAt', 'id'])
@Index('ix_conversations_org_status_activity', ['organizationId', 'status', 'lastActivityAt', 'id'])
export class Conversation {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  /** The messaging account (`integrationId` in the public API). */
  @Column('uuid') integrationId: string;
  /** Its account's world, copied when the thread starts so reads scope like every per-world table. */
  @Column('boolean', { default: true }) livemode: boolean;
  @Column('text') status: ConversationStatus;
  /** E.164; empty for a user the provider names only by business-scoped id (waUserId). */
  @Column('text') waUserPhone: string;
  /** The provider's business-scoped user id (WhatsApp `user_id`), when it sends one. */
  @Column('text', { nullable: true }) waUserId: string | null;
  @Column('text', { default: '' }) waUserName: string;
  /** No foreign key, as for calls: deleting a contact leaves the thread and its contact id as history. */
  @Column('uuid', { nullable: true }) contactId: string | null;
  @Column('text', { default: '' }) lastMessagePreview: string;
  @Column('text', { nullable: true }) lastMessageDirection: MessageDirection | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) lastUserMessageAt: Date | null;
  /** lastUserMessageAt + 24 h: free-form text may be sent until then. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) sessionExpiresAt: Date | null;
  @Column('integer', { default: 0 }) messageCount: number;
  @Column('text', { nullable: true }) aiSummary: string | null;
  /** Bot replies since the user last reached a person (README "Chat agent"): the hand-off limit counts these. */
  @Column('integer', { default: 0 }) botRepliesInRow: number;
  /** The voice platform's id of the last chat turn, so the next turn carries the context (Vapi previousChatId). */
  @Column('text', { nullable: true }) lastChatId: string | null;
  /** The time of the latest message either way; the list's sort key. */
  @Column({ type: 'timestamptz', precision: 3 }) lastActivityAt: Date;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
