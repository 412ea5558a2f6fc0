import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { selectColumns } from '../../infra/database/select-columns';
import { Conversation } from './conversation.entity';
import { ConversationDetailResponse, ConversationResponse } from './conversation.response';
import { ListConversationsQueryDto } from './dto/list-conversations.dto';
import { Message } from './message.entity';
import { MessageResponse } from './message.response';
import { MessagingAccount } from './messaging-account.entity';
import { World, worldSql, worldWhere } from '../../common/auth/world';

/** What a listed conversation shows, plus its keyset (`lastActivityAt`, `id`). */
const LIST_COLUMNS = [
  'id',
  'status',
  'waUserPhone',
  'waUserId',
  'waUserName',
  'contactId',
  'integrationId',
  'lastMessagePreview',
  'lastMessageDirection',
  'lastUserMessageAt',
  'sessionExpiresAt',
  'messageCount',
  'aiSummary',
  'lastActivityAt',
  'createdAt',
  'updatedAt',
  'livemode',
] as const satisfies ReadonlyArray<keyof Conversation>;

/** Spec: a conversation shows at most its 50 most recent messages. */
export const CONVERSATION_MESSAGE_LIMIT = 50;

@Injectable()
export class ConversationsService {
  constructor(
    @InjectRepository(Conversation) private readonly conversations: Repository<Conversation>,
    @InjectRepository(Message) private readonly messages: Repository<Message>,
    private readonly codec: CursorCodec,
  ) {}

  /** Most recent activity first. */
  list(world: World, query: ListConversationsQueryDto): Promise<Page<ConversationResponse>> {
    const qb = this.conversations
      .createQueryBuilder('c')
      .select(selectColumns<Conversation>('c', LIST_COLUMNS))
      .where(worldSql('c'), worldWhere(world));
    if (query.status) qb.andWhere('c.status = :status', { status: query.status });
    return keysetPaginate(qb, {
      alias: 'c',
      sortProperty: 'lastActivityAt',
      filters: { status: query.status },
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      map: ConversationResponse.from,
    });
  }

  /**
   * The world's most recently active conversation with this phone on an active account: where a message to that
   * number would go. Null when there is none.
   */
  latestWith(world: World, phone: string): Promise<Conversation | null> {
    return this.conversations
      .createQueryBuilder('c')
      .innerJoin(MessagingAccount, 'a', 'a.id = c.integrationId AND a.status = :active', { active: 'active' })
      .where(`${worldSql('c')} AND c.waUserPhone = :phone`, { ...worldWhere(world), phone })
      .orderBy('c.lastActivityAt', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getOne();
  }

  async get(world: World, id: string): Promise<ConversationDetailResponse> {
    const conversation = await this.conversations.findOneBy({ id, ...worldWhere(world) });
    if (!conversation) throw ApiError.notFound('Conversation');
    const recent = await this.messages.find({
      where: { conversationId: id, organizationId: world.organizationId },
      order: { timestamp: 'DESC', id: 'DESC' },
      take: CONVERSATION_MESSAGE_LIMIT,
    });
    return { ...ConversationResponse.from(conversation), messages: recent.reverse().map(MessageResponse.from) };
  }
}
