import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World } from '../../../common/auth/world';
import { ApiError } from '../../../common/errors/api-error';
import { OutboxService } from '../../outbox/outbox.service';
import { Conversation } from '../conversation.entity';
import { ConversationMove } from '../conversation-transitions';
import { ConversationsRepository } from '../conversations.repository';
import { ConversationSummaries } from './conversation-summaries';
import { inTransaction } from '../../../infra/database/tx';

/**
 * Moves a conversation between `active`, `handed_off` and `closed` (CONVERSATION_MOVES), by hand (the public routes)
 * or by the agent (a hand-off keyword, the reply limit, a platform that keeps failing). One conditional UPDATE
 * decides (ConversationsRepository.move), so two moves at once never both win; a hand-off records `conversation.handed_off` in the same transaction. Reopening starts the
 * bot's reply count afresh.
 */
@Injectable()
export class ConversationMovesCommand {
  private readonly logger = new Logger(ConversationMovesCommand.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly summaries: ConversationSummaries,
    private readonly conversations: ConversationsRepository,
  ) {}

  /** A move asked for through the API: 404 outside the key's world, 422 INVALID_STATE when the state forbids it. */
  async byHand(world: World, id: string, move: ConversationMove): Promise<Conversation> {
    const moved = await this.apply(world, id, move);
    if (moved) return moved;
    const current = await this.conversations.find(world, id);
    if (!current) throw ApiError.notFound('Conversation');
    throw new ApiError('INVALID_STATE', `A ${current.status} conversation cannot be moved by ${move}`);
  }

  /** The agent's hand-off; false when the conversation was no longer active (someone moved it first). */
  async handOffByAgent(world: World, id: string, reason: string): Promise<boolean> {
    const moved = await this.apply(world, id, 'hand-off');
    if (moved) this.logger.log({ conversationId: id, reason }, 'Conversation handed off to a person');
    return moved !== null;
  }

  private async apply(world: World, id: string, move: ConversationMove): Promise<Conversation | null> {
    const moved = await inTransaction(this.dataSource, async (m) => {
      const row = await this.conversations.move(m, world, id, move);
      if (row && move === 'hand-off') {
        await this.outbox.record(m, row, 'conversation.handed_off', { conversationId: row.id });
      }
      return row;
    });
    if (!moved || move === 'reopen') return moved;
    // The summary follows the move (a hand-off or close is when a person reads it); never undoes it.
    return (await this.summaries.refresh(moved)) ?? moved;
  }
}
