import { Injectable, Logger } from '@nestjs/common';
import { Conversation } from '../conversation.entity';
import { ConversationsRepository } from '../conversations.repository';
import { MessagesRepository } from '../messages.repository';
import { ChatAgentsService } from './chat-agents.service';
import { ChatPlatformRouter } from './chat-platform-router';

/** `aiSummary` never exceeds this many characters (README "Chat agent"). */
export const AI_SUMMARY_MAX_LENGTH = 500;
/** The summary reads at most this many of the conversation's latest messages. */
const SUMMARY_MESSAGES = 50;

/**
 * Keeps a conversation's `aiSummary` current, after each bot reply and on hand-off or close, while its account's
 * agent is on with summaries. A summary that cannot be made leaves the previous one: it is a convenience, never a
 * reason to fail a reply or a move.
 */
@Injectable()
export class ConversationSummaries {
  private readonly logger = new Logger(ConversationSummaries.name);

  constructor(
    private readonly agents: ChatAgentsService,
    private readonly platforms: ChatPlatformRouter,
    private readonly messages: MessagesRepository,
    private readonly conversations: ConversationsRepository,
  ) {}

  /** The conversation with its new summary, or null when none was made. */
  async refresh(conversation: Conversation): Promise<Conversation | null> {
    const agent = await this.agents.enabledFor(conversation.integrationId);
    if (!agent?.summary) return null;
    try {
      const recent = await this.messages.recent(conversation.organizationId, conversation.id, SUMMARY_MESSAGES);
      const lastUser = recent.find((m) => m.senderType === 'user');
      const platform = this.platforms.of(agent);
      const summary = await platform.summarize({
        organizationId: conversation.organizationId,
        messageCount: conversation.messageCount,
        lastUserText: lastUser?.text ?? '',
        transcript: recent
          .reverse()
          .map((m) => ({ role: m.senderType === 'user' ? ('user' as const) : ('assistant' as const), text: m.text })),
        assistantConfigId: agent.assistantConfigId,
      });
      return await this.conversations.setSummary(conversation.id, summary.slice(0, AI_SUMMARY_MAX_LENGTH));
    } catch (error) {
      this.logger.warn({ conversationId: conversation.id, err: (error as Error).message }, 'Summary not updated');
      return null;
    }
  }
}
