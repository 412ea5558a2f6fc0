import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { World, worldSql, worldWhere } from '../../common/auth/world';
import { selectColumns } from '../../infra/database/select-columns';
import { Tx } from '../../infra/database/tx';
import { Conversation, ConversationStatus } from './conversation.entity';
import { MessagingAccount } from './messaging-account.entity';

/** The SQL of `conversations` read and moved by the API. */
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
}
