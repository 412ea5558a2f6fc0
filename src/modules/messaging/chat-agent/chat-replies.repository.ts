import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { lockForTransaction } from '../../../infra/database/advisory-locks';
import { inTransaction } from '../../../infra/database/tx';
import { Message } from '../message.entity';
import { ChatReplyStatus } from './chat-reply.entity';

/** How long one attempt may hold a message's reply before another worker may take it over. */
export const REPLY_LEASE_SECONDS = 30;
/** How soon a message whose conversation is answering another one looks again (a turn takes about a second). */
export const TURN_WAIT_MS = 250;

/** The SQL of `chat_replies`: one claimed row per inbound message the agent answers. */
@Injectable()
export class ChatRepliesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * `won` for the one caller that may reply now: the first to see the message, or a retry once the previous attempt
   * let go (released after a platform error, or its lease ran out). Otherwise `busy` with the time left on another
   * attempt's lease (it may still die, and then this caller must answer), or `settled` for good. A conversation
   * answers one message at a time: while another of its messages is being answered this one is `busy` too, so
   * turns never overlap (each sees the last one's reply count and chat id: maxBotReplies holds under a flood).
   * The conversation's advisory lock makes that check and the claim one step.
   */
  async claim(message: Message): Promise<{ outcome: 'won' | 'settled' } | { outcome: 'busy'; retryInMs: number }> {
    return inTransaction(this.dataSource, async (m) => {
      await lockForTransaction(m, 'conversationReplies', message.conversationId);
      const turns: unknown[] = await m.query(
        `SELECT 1 FROM chat_replies
          WHERE conversation_id = $1 AND inbound_message_id <> $2 AND status = 'replying' AND lease_until > now()
          LIMIT 1`,
        [message.conversationId, message.id],
      );
      if (turns.length) return { outcome: 'busy', retryInMs: TURN_WAIT_MS };
      return this.claimMessage(m, message);
    });
  }

  private async claimMessage(
    m: Pick<DataSource, 'query'>,
    message: Message,
  ): Promise<{ outcome: 'won' | 'settled' } | { outcome: 'busy'; retryInMs: number }> {
    const rows: unknown[] = await m.query(
      `INSERT INTO chat_replies (inbound_message_id, organization_id, conversation_id, status, attempts, lease_until)
       VALUES ($1, $2, $3, 'replying', 1, now() + make_interval(secs => $4))
       ON CONFLICT (inbound_message_id) DO UPDATE
         SET attempts = chat_replies.attempts + 1, lease_until = EXCLUDED.lease_until, updated_at = now()
         WHERE chat_replies.status = 'replying' AND chat_replies.lease_until < now()
       RETURNING inbound_message_id`,
      [message.id, message.organizationId, message.conversationId, REPLY_LEASE_SECONDS],
    );
    if (rows.length === 1) return { outcome: 'won' };
    const [held]: Array<{ status: string; left_ms: number }> = await m.query(
      `SELECT status, GREATEST(0, EXTRACT(EPOCH FROM lease_until - now()) * 1000)::int AS left_ms
         FROM chat_replies WHERE inbound_message_id = $1`,
      [message.id],
    );
    if (!held || held.status !== 'replying') return { outcome: 'settled' };
    return { outcome: 'busy', retryInMs: held.left_ms + 100 };
  }

  /** Lets a retry claim the message at once (the attempt failed before anything was sent). */
  async release(messageId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE chat_replies SET lease_until = now() - interval '1 millisecond', updated_at = now()
        WHERE inbound_message_id = $1 AND status = 'replying'`,
      [messageId],
    );
  }

  async settle(
    messageId: string,
    status: Exclude<ChatReplyStatus, 'replying'>,
    detail: { reason?: string; replyMessageId?: string } = {},
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE chat_replies SET status = $2, reason = $3, reply_message_id = $4, updated_at = now()
        WHERE inbound_message_id = $1`,
      [messageId, status, detail.reason ?? null, detail.replyMessageId ?? null],
    );
  }
}
