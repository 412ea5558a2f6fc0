import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../../common/entities/timestamps';

export type ChatReplyStatus = 'replying' | 'sent' | 'skipped' | 'failed';

/**
 * One row per inbound message the agent considered: the claim that makes its reply happen once however often the
 * message is seen (a redelivered webhook, two workers, a replayed event), and the outcome with its reason.
 */
// A conversation's turn in progress, looked up by every claim of its messages (ChatRepliesRepository.claim).
@Index('ix_chat_replies_conversation_replying', ['conversationId'], { where: "status = 'replying'" })
@Entity('chat_replies')
export class ChatReply {
  @PrimaryColumn('uuid') inboundMessageId: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') conversationId: string;
  @Column('text') status: ChatReplyStatus;
  /** Why it was skipped or failed (HAND_OFF_KEYWORD, DO_NOT_CALL, SESSION_EXPIRED, the platform's error, ...). */
  @Column('text', { nullable: true }) reason: string | null;
  @Column('uuid', { nullable: true }) replyMessageId: string | null;
  @Column('integer', { default: 0 }) attempts: number;
  /** A `replying` claim older than this may be taken over (its worker died mid-reply). */
  @Column({ type: 'timestamptz', precision: 3 }) leaseUntil: Date;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
