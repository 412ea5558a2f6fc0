import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

export const FOLLOW_UP_MESSAGE_STATUSES = ['sending', 'sent', 'skipped'] as const;
export type FollowUpMessageStatus = (typeof FOLLOW_UP_MESSAGE_STATUSES)[number];

/**
 * What a message follow-up did about one finished call. The (follow-up, call) key is claimed before the send, so
 * a finished-call event processed twice sends nothing the second time. `sending` is the claim: it stays so only
 * when the process died between the claim and the outcome (at most once rather than twice).
 */
@Entity('follow_up_messages')
@Index('ix_follow_up_messages_follow_up_created', ['followUpId', 'createdAt'])
export class FollowUpMessage {
  @PrimaryColumn('uuid') followUpId: string;
  @PrimaryColumn('uuid') callId: string;
  @Column('uuid') organizationId: string;
  @Column('text') status: FollowUpMessageStatus;
  /** Why nothing was sent: `NO_CONVERSATION`, `DO_NOT_CALL`, or the send's error code (e.g. TEMPLATE_NOT_FOUND). */
  @Column('text', { nullable: true }) reason: string | null;
  /** The sent message (in the conversation's messages). */
  @Column('uuid', { nullable: true }) messageId: string | null;
  @Column('uuid', { nullable: true }) conversationId: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
