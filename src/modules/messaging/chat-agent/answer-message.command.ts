import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World } from '../../../common/auth/world';
import { ApiError } from '../../../common/errors/api-error';
import { DeferJob } from '../../../infra/queue/defer-job';
import { ContactsService } from '../../contacts/contacts.service';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import { isOptOut } from '../../do-not-call/opt-out-keywords';
import { Conversation } from '../conversation.entity';
import { Message } from '../message.entity';
import { ConversationsRepository } from '../conversations.repository';
import { MessagesRepository } from '../messages.repository';
import { SendMessageCommand } from '../send-message.command';
import { MESSAGE_TEXT_MAX_LENGTH } from '../dto/send-message.dto';
import { ChatAgent } from './chat-agent.entity';
import { ChatAgentsService } from './chat-agents.service';
import { ChatPlatformRouter } from './chat-platform-router';
import { ChatRepliesRepository } from './chat-replies.repository';
import { ConversationMovesCommand } from './conversation-moves.command';
import { ConversationSummaries } from './conversation-summaries';
import { mentionsHandOffKeyword } from './hand-off-keywords';

/** Thrown when the platform failed and a later attempt may succeed: the job retries it with backoff. */
class ChatPlatformUnavailable extends Error {}

/**
 * The chat agent answers one inbound user message (README "Chat agent"), at most once: the message is claimed in
 * PostgreSQL first, so a redelivered webhook, a replayed event or a second worker finds it taken. Then, in order:
 * the conversation must be active; a number on the do-not-call ledger (a STOP lists it) gets no answer; a hand-off
 * keyword hands the conversation to a person instead of answering; otherwise the platform's answer is sent through
 * SendMessageCommand (window, test mode and the provider's refusals as for any send), the reply count moves, and at
 * the limit the conversation is handed off. A platform failure sends nothing and lets the job retry; the last
 * attempt hands the conversation off with the reason logged. The user's message is stored before any of this.
 */
@Injectable()
export class AnswerMessageCommand {
  private readonly logger = new Logger(AnswerMessageCommand.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly agents: ChatAgentsService,
    private readonly replies: ChatRepliesRepository,
    private readonly platforms: ChatPlatformRouter,
    private readonly send: SendMessageCommand,
    private readonly moves: ConversationMovesCommand,
    private readonly summaries: ConversationSummaries,
    private readonly doNotCall: DoNotCallService,
    private readonly contacts: ContactsService,
    private readonly messages: MessagesRepository,
    private readonly conversations: ConversationsRepository,
  ) {}

  async execute(messageId: string, lastAttempt: boolean): Promise<void> {
    const message = await this.messages.findById(messageId);
    // A system message is the provider's notice about the user (a new number), nothing to answer.
    if (!message || message.senderType !== 'user' || message.messageType === 'system') return;
    const agent = await this.agents.enabledFor(message.accountId);
    if (!agent) return;
    const claim = await this.replies.claim(message);
    if (claim.outcome === 'settled') return;
    // Another attempt holds the message: look again when its lease ends, in case that attempt died mid-reply.
    if (claim.outcome === 'busy') throw new DeferJob(claim.retryInMs, 'another attempt is answering this message');
    const conversation = await this.conversations.getById(message.conversationId);
    const world: World = { organizationId: conversation.organizationId, livemode: conversation.livemode };
    const skip = await this.reasonToSkip(world, agent, conversation, message);
    if (skip) {
      // The hand-off first: whoever sees the message settled as skipped for it sees the conversation handed off.
      if (skip === 'HAND_OFF_KEYWORD') await this.moves.handOffByAgent(world, conversation.id, skip);
      await this.replies.settle(message.id, 'skipped', { reason: skip });
      return;
    }
    await this.answer(world, agent, conversation, message, lastAttempt);
  }

  private async reasonToSkip(
    world: World,
    agent: ChatAgent,
    conversation: Conversation,
    message: Message,
  ): Promise<string | null> {
    if (conversation.status !== 'active') return 'NOT_ACTIVE';
    if (isOptOut(message.text)) return 'OPT_OUT';
    if (conversation.waUserPhone) {
      const listed = await this.doNotCall.listedAmong(this.dataSource.manager, world, [conversation.waUserPhone]);
      if (listed.size) return 'DO_NOT_CALL';
    }
    // The agent reads text; a photo or a location waits for a person.
    if (message.messageType !== 'text' || !message.text.trim()) return 'NOT_TEXT';
    if (mentionsHandOffKeyword(message.text, agent.handOffKeywords)) return 'HAND_OFF_KEYWORD';
    return null;
  }

  private async answer(
    world: World,
    agent: ChatAgent,
    conversation: Conversation,
    message: Message,
    lastAttempt: boolean,
  ): Promise<void> {
    const contact = conversation.contactId ? await this.contacts.find(world, conversation.contactId) : null;
    let answer;
    try {
      answer = await this.platforms.of(agent).reply({
        organizationId: conversation.organizationId,
        text: message.text,
        contact,
        caseId: agent.caseId,
        assistantConfigId: agent.assistantConfigId,
        previousChatId: conversation.lastChatId,
      });
    } catch (error) {
      const reason = `CHAT_PLATFORM_ERROR: ${(error as Error).message}`.slice(0, 500);
      if (!lastAttempt) {
        await this.replies.release(message.id);
        throw new ChatPlatformUnavailable(reason);
      }
      await this.replies.settle(message.id, 'failed', { reason });
      this.logger.warn({ conversationId: conversation.id, messageId: message.id, reason }, 'Chat agent gave up');
      await this.moves.handOffByAgent(world, conversation.id, reason);
      return;
    }
    // The platform may say more than one message holds: cut to the reply's bound (docs/contracts/bounds.md).
    const text =
      answer.text.length > MESSAGE_TEXT_MAX_LENGTH
        ? `${answer.text.slice(0, MESSAGE_TEXT_MAX_LENGTH - 1)}…`
        : answer.text;
    let sentId: string;
    try {
      sentId = (await this.send.execute(world, { type: 'text', conversationId: conversation.id, text })).messageId;
    } catch (error) {
      // The send's refusals (window closed, provider refusal) are outcomes to record, not faults to retry.
      if (!(error instanceof ApiError)) throw error;
      await this.replies.settle(message.id, 'skipped', { reason: error.code });
      return;
    }
    // Counted, and handed off at the cap, before the turn ends: the conversation's next message waits for this
    // turn to settle (ChatRepliesRepository.claim), so it must then see this reply counted and the hand-off made.
    const current = await this.conversations.countBotReply(conversation.id, answer.chatId);
    const capped = current.botRepliesInRow >= agent.maxBotReplies;
    if (capped) await this.moves.handOffByAgent(world, conversation.id, 'MAX_BOT_REPLIES');
    await this.replies.settle(message.id, 'sent', { replyMessageId: sentId });
    if (!capped) await this.summaries.refresh(current);
  }
}
