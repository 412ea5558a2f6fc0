import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { World, worldWhere } from '../../common/auth/world';
import { Tx } from '../../infra/database/tx';
import { Message } from './message.entity';

/** The SQL of `messages` read and sent by the API. */
@Injectable()
export class MessagesRepository {
  constructor(@InjectRepository(Message) private readonly messages: Repository<Message>) {}

  async insert(tx: Tx, message: Partial<Message>): Promise<void> {
    await tx.insert(Message, message);
  }

  find(world: World, id: string): Promise<Message | null> {
    return this.messages.findOneBy({ id, ...worldWhere(world) });
  }

  /** The conversation's `limit` most recent messages, newest first. */
  recent(organizationId: string, conversationId: string, limit: number): Promise<Message[]> {
    return this.messages.find({
      where: { conversationId, organizationId },
      order: { timestamp: 'DESC', id: 'DESC' },
      take: limit,
    });
  }
}
