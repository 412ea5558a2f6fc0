import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World, worldWhere } from '../../common/auth/world';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import type { MessageEventPayload } from '../outbox/event-payloads';
import { Conversation } from './conversation.entity';
import { ConversationResponse } from './conversation.response';
import { Message } from './message.entity';
import { MessageEventDataResponse } from './message.response';

/** What a message event records: its ids, and who wrote it (the chat agent answers users only). */
export function messageEventPayload(
  message: Pick<Message, 'id' | 'conversationId' | 'senderType'>,
): MessageEventPayload {
  return { messageId: message.id, conversationId: message.conversationId, senderType: message.senderType };
}

/**
 * The bodies of messaging events (extensions): the Message with its conversationId and livemode, and for a
 * hand-off the Conversation, each as it is when the delivery is sent.
 */
@Injectable()
export class MessagingEventBodies implements OnModuleInit {
  constructor(
    private readonly bodies: EventBodies,
    private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    const message = async (world: World, { messageId }: MessageEventPayload) => {
      const row = await this.dataSource.manager.findOneBy(Message, { ...worldWhere(world), id: messageId });
      return row && { ...MessageEventDataResponse.of(row) };
    };
    this.bodies.register({
      'message.received': message,
      'message.sent': message,
      'message.delivered': message,
      'message.read': message,
      'message.failed': message,
    } satisfies EventBodyRenderers<EventFamily<'message'>>);
    this.bodies.register({
      'conversation.handed_off': async (world, { conversationId }) => {
        const row = await this.dataSource.manager.findOneBy(Conversation, { ...worldWhere(world), id: conversationId });
        return row && { ...ConversationResponse.from(row) };
      },
    } satisfies EventBodyRenderers<EventFamily<'conversation'>>);
  }
}
