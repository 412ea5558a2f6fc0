import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { Conversation } from './conversation.entity';
import { ConversationDetailResponse, ConversationResponse } from './conversation.response';
import { ConversationsRepository } from './conversations.repository';
import { ListConversationsQueryDto } from './dto/list-conversations.dto';
import { MessageResponse } from './message.response';
import { MessagesRepository } from './messages.repository';
import { World } from '../../common/auth/world';

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
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesRepository,
    private readonly codec: CursorCodec,
  ) {}

  /** Most recent activity first. */
  list(world: World, query: ListConversationsQueryDto): Promise<Page<ConversationResponse>> {
    return keysetPaginate(this.conversations.listQuery(world, LIST_COLUMNS, query.status), {
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
    return this.conversations.latestWith(world, phone);
  }

  async get(world: World, id: string): Promise<ConversationDetailResponse> {
    const conversation = await this.conversations.find(world, id);
    if (!conversation) throw ApiError.notFound('Conversation');
    const recent = await this.messages.recent(world.organizationId, id, CONVERSATION_MESSAGE_LIMIT);
    return { ...ConversationResponse.from(conversation), messages: recent.reverse().map(MessageResponse.from) };
  }
}
