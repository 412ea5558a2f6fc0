import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryEntities } from '../../infra/database/entity-rows';
import { FollowUpMessage } from './follow-up-message.entity';

export type FollowUpMessageOutcome =
  | { status: 'sent'; messageId: string; conversationId: string }
  | { status: 'skipped'; reason: string; conversationId?: string };

/** The SQL of `follow_up_messages`: one claimed row per (message follow-up, finished call). */
@Injectable()
export class FollowUpMessagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** True for the one caller that claims the pair; any later or concurrent claim of it is false. */
  async claim(organizationId: string, followUpId: string, callId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO follow_up_messages (follow_up_id, call_id, organization_id, status)
       VALUES ($1, $2, $3, 'sending') ON CONFLICT DO NOTHING RETURNING call_id`,
      [followUpId, callId, organizationId],
    );
    return rows.length === 1;
  }

  async settle(followUpId: string, callId: string, outcome: FollowUpMessageOutcome): Promise<void> {
    await this.dataSource.query(
      `UPDATE follow_up_messages SET status = $3, reason = $4, message_id = $5, conversation_id = $6, updated_at = now()
        WHERE follow_up_id = $1 AND call_id = $2`,
      [
        followUpId,
        callId,
        outcome.status,
        outcome.status === 'skipped' ? outcome.reason : null,
        outcome.status === 'sent' ? outcome.messageId : null,
        outcome.conversationId ?? null,
      ],
    );
  }

  /** The follow-up's most recent outcomes, newest first. */
  recent(organizationId: string, followUpId: string, limit: number): Promise<FollowUpMessage[]> {
    return queryEntities(
      this.dataSource.manager,
      FollowUpMessage,
      `SELECT * FROM follow_up_messages WHERE organization_id = $1 AND follow_up_id = $2
        ORDER BY created_at DESC, call_id DESC LIMIT $3`,
      [organizationId, followUpId, limit],
    );
  }
}
