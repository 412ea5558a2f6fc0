import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { World, worldSql, worldWhere } from '../../common/auth/world';
import { queryEntities } from '../../infra/database/entity-rows';
import { selectColumns } from '../../infra/database/select-columns';
import { Tx } from '../../infra/database/tx';
import { Conversation, ConversationStatus } from './conversation.entity';
import { CONVERSATION_MOVES, ConversationMove, conversationStatusIn } from './conversation-transitions';
import { MessagingAccount } from './messaging-account.entity';

/** A user's message as it moves its conversation. */
export interface InboundActivity {
  /** When the user wrote it. */
  timestamp: Date;
  preview: string;
  contactId: string | null;
  /** The provider's id of the user, when it sent one. */
  userId: string | null;
  /** E.164, or empty when the provider names the user by id only. */
  phone: string;
  /** The user's profile name, when the provider told it. */
  name: string | undefined;
}

/** The SQL of `conversations`. Every status move is one statement conditional on CONVERSATION_MOVES. */
@Injectable()
export class ConversationsRepository {
  constructor(@InjectRepository(Conversation) private readonly conversations: Repository<Conversation>) {}

  /** The world's conversations, `columns` only, optionally of one status, for keyset pagination (alias `c`). */
  listQuery(
    world: World,
    columns: ReadonlyArray<keyof Conversation & string>,
    status: ConversationStatus | undefined,
  ): SelectQueryBuilder<Conversation> {
    const qb = this.conversations
      .createQueryBuilder('c')
      .select(selectColumns<Conversation>('c', columns))
      .where(worldSql('c'), worldWhere(world));
    if (status) qb.andWhere('c.status = :status', { status });
    return qb;
  }

  /** The world's most recently active conversation with this phone on an active account, or null. */
  latestWith(world: World, phone: string): Promise<Conversation | null> {
    return this.conversations
      .createQueryBuilder('c')
      .innerJoin(MessagingAccount, 'a', 'a.id = c.integrationId AND a.status = :active', { active: 'active' })
      .where(`${worldSql('c')} AND c.waUserPhone = :phone`, { ...worldWhere(world), phone })
      .orderBy('c.lastActivityAt', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getOne();
  }

  /** Counts an outbound message sent at `now`, in the transaction that stores it (activity never moves back). */
  async recordOutbound(tx: Tx, id: string, preview: string, now: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(Conversation)
      .set({
        messageCount: () => 'message_count + 1',
        lastMessagePreview: preview,
        lastMessageDirection: 'outbound',
        lastActivityAt: () => 'GREATEST(last_activity_at, :now)',
      })
      .where('id = :id', { id })
      .setParameters({ now })
      .execute();
  }

  find(world: World, id: string): Promise<Conversation | null> {
    return this.conversations.findOneBy({ id, ...worldWhere(world) });
  }

  /** A conversation known to exist (a stored message names it). */
  getById(id: string): Promise<Conversation> {
    return this.conversations.findOneByOrFail({ id });
  }

  /**
   * The account's thread with this user, created from `thread` when there is none, locked `FOR UPDATE` until `tx`
   * ends: insert-if-absent then lock, so two first messages from one user at once still make one conversation.
   * The thread is found by the provider's user id or by phone, whichever it already has (the id first).
   */
  async insertOrLockThread(tx: Tx, thread: Partial<Conversation> & { integrationId: string }): Promise<Conversation> {
    await tx.createQueryBuilder().insert().into(Conversation).values(thread).orIgnore().execute();
    return tx
      .createQueryBuilder(Conversation, 'c')
      .setLock('pessimistic_write')
      .where('c.integrationId = :accountId', { accountId: thread.integrationId })
      .andWhere("(c.waUserId = :userId OR (c.waUserPhone = :phone AND :phone <> ''))", {
        userId: thread.waUserId ?? null,
        phone: thread.waUserPhone,
      })
      .orderBy('c.waUserId = :userId', 'DESC', 'NULLS LAST')
      .limit(1)
      .getOneOrFail();
  }

  /**
   * Counts a user's message on its thread, in the transaction that stores it. A late (out-of-order) message
   * still extends the window if it is the user's latest, but only the latest message of all sets the preview;
   * a closed thread reopens (CONVERSATION_MOVES.userWrites).
   */
  async recordInbound(tx: Tx, id: string, activity: InboundActivity): Promise<void> {
    const reopen = CONVERSATION_MOVES.userWrites;
    await tx
      .createQueryBuilder()
      .update(Conversation)
      .set({
        messageCount: () => 'message_count + 1',
        lastUserMessageAt: () => 'GREATEST(COALESCE(last_user_message_at, :ts), :ts)',
        sessionExpiresAt: () => "GREATEST(COALESCE(last_user_message_at, :ts), :ts) + interval '24 hours'",
        lastMessagePreview: () => 'CASE WHEN :ts >= last_activity_at THEN :preview ELSE last_message_preview END',
        lastMessageDirection: () => "CASE WHEN :ts >= last_activity_at THEN 'inbound' ELSE last_message_direction END",
        lastActivityAt: () => 'GREATEST(last_activity_at, :ts)',
        contactId: () => 'COALESCE(contact_id, :contactId)',
        // The first message that tells both ways of naming the user links them on the thread, unless another
        // thread of the account already holds the other name (then the two threads stay as they were).
        waUserId: () =>
          'CASE WHEN wa_user_id IS NULL AND NOT EXISTS (SELECT 1 FROM conversations o WHERE ' +
          'o.integration_id = conversations.integration_id AND o.wa_user_id = :userId) THEN :userId ELSE wa_user_id END',
        waUserPhone: () =>
          "CASE WHEN wa_user_phone = '' AND NOT EXISTS (SELECT 1 FROM conversations o WHERE " +
          'o.integration_id = conversations.integration_id AND o.wa_user_phone = :phone) THEN :phone ELSE wa_user_phone END',
        status: () => `CASE WHEN ${conversationStatusIn(reopen.from)} THEN '${reopen.to}' ELSE status END`,
        ...(activity.name ? { waUserName: activity.name } : {}),
      })
      .where('id = :id', { id })
      .setParameters({
        ts: activity.timestamp,
        preview: activity.preview,
        contactId: activity.contactId,
        userId: activity.userId,
        phone: activity.phone,
      })
      .execute();
  }

  /**
   * The provider's notice that the thread's user changed number or provider id: the thread takes the new name, so
   * the user's next message (from the new number, or under the new id) continues it instead of opening another.
   * When another thread of the account already holds that name (the user wrote from it before the notice came),
   * the threads stay as they are. The notice counts as a message of the thread but opens no reply window: the user
   * wrote nothing.
   */
  async followUser(
    tx: Tx,
    id: string,
    change: { phone: string | null; userId: string | null; at: Date; preview: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE conversations SET
              message_count = message_count + 1,
              last_message_preview = CASE WHEN $4 >= last_activity_at THEN $5 ELSE last_message_preview END,
              last_message_direction = CASE WHEN $4 >= last_activity_at THEN 'inbound' ELSE last_message_direction END,
              last_activity_at = GREATEST(last_activity_at, $4),
              wa_user_phone = CASE WHEN $2::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM conversations o
                  WHERE o.integration_id = conversations.integration_id AND o.wa_user_phone = $2 AND o.id <> $1)
                THEN $2 ELSE wa_user_phone END,
              wa_user_id = CASE WHEN $3::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM conversations o
                  WHERE o.integration_id = conversations.integration_id AND o.wa_user_id = $3 AND o.id <> $1)
                THEN $3 ELSE wa_user_id END
        WHERE id = $1`,
      [id, change.phone, change.userId, change.at, change.preview],
    );
  }

  /**
   * Moves the world's conversation when its status is one `move` leaves from: one conditional UPDATE, so of two
   * moves at once only one wins. Moving to `active` starts the bot's reply count afresh. The moved row, or null.
   */
  async move(tx: Tx, world: World, id: string, move: ConversationMove): Promise<Conversation | null> {
    const { from, to } = CONVERSATION_MOVES[move];
    const [row] = await queryEntities(
      tx,
      Conversation,
      `UPDATE conversations SET status = $4, updated_at = now(),
              bot_replies_in_row = CASE WHEN $4 = 'active' THEN 0 ELSE bot_replies_in_row END
        WHERE id = $1 AND organization_id = $2 AND livemode = $3 AND ${conversationStatusIn(from)} RETURNING *`,
      [id, world.organizationId, world.livemode, to],
    );
    return row ?? null;
  }

  /** Counts a reply of the bot in a row, keeping the platform's chat id for the next turn; the row after. */
  async countBotReply(id: string, chatId: string | null): Promise<Conversation> {
    const [row] = await queryEntities(
      this.conversations.manager,
      Conversation,
      `UPDATE conversations SET bot_replies_in_row = bot_replies_in_row + 1, last_chat_id = COALESCE($2, last_chat_id)
        WHERE id = $1 RETURNING *`,
      [id, chatId],
    );
    return row;
  }

  /** Stores the conversation's summary; the row after, or null when it is gone. */
  async setSummary(id: string, summary: string): Promise<Conversation | null> {
    const [row] = await queryEntities(
      this.conversations.manager,
      Conversation,
      `UPDATE conversations SET ai_summary = $2 WHERE id = $1 RETURNING *`,
      [id, summary],
    );
    return row ?? null;
  }
}
