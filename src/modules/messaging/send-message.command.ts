import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Conversation } from './conversation.entity';
import { SendMessageDto } from './dto/send-message.dto';
import { Message } from './message.entity';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingTemplate } from './messaging-template.entity';
import { MessagingProvider, SendResult } from './providers/messaging-provider';
import { MessagingSimulatorProvider } from './providers/simulator/messaging-simulator.provider';
import { previewOf } from './record-inbound-message.command';
import { RENDERED_TEMPLATE_MAX_LENGTH, renderTemplate } from './template-placeholders';
import { World, worldWhere } from '../../common/auth/world';

export interface SentMessage {
  messageId: string;
  type: 'text' | 'template';
  template?: { name: string; language: string };
}

/**
 * Sends one message into a conversation, enforcing the rules in order: the conversation and an active account
 * exist (404), free-form text only inside the 24-hour window (422), a template must be registered and APPROVED in
 * that language (404 TEMPLATE_NOT_FOUND); then the provider decides (502 when it refuses). A test world's message
 * (a `test` key's, on a test account) goes to the simulator whatever MESSAGING_PROVIDER says, and is stored
 * marked `livemode = false` (README: "Test and live").
 */
@Injectable()
export class SendMessageCommand {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(Conversation) private readonly conversations: Repository<Conversation>,
    @InjectRepository(MessagingAccount) private readonly accounts: Repository<MessagingAccount>,
    @InjectRepository(MessagingTemplate) private readonly templates: Repository<MessagingTemplate>,
    private readonly configured: MessagingProvider,
    private readonly simulator: MessagingSimulatorProvider,
  ) {}

  async execute(world: World, dto: SendMessageDto): Promise<SentMessage> {
    const conversation = await this.conversations.findOneBy({ id: dto.conversationId, ...worldWhere(world) });
    if (!conversation) throw ApiError.notFound('Conversation');
    const account = await this.accounts.findOneBy({
      id: conversation.integrationId,
      ...worldWhere(world),
      status: 'active',
    });
    if (!account) throw ApiError.notFound('Active messaging integration');
    // The conversation's world is its account's: a test account always sends through the simulator.
    const livemode = account.livemode;
    const provider = livemode ? this.configured : this.simulator;
    const to = conversation.waUserPhone;

    if (dto.type === 'text') {
      const now = Date.now();
      if (!conversation.sessionExpiresAt || now > conversation.sessionExpiresAt.getTime()) {
        throw new ApiError(
          'SESSION_EXPIRED',
          "The 24-hour window after the user's last message has closed; send a template instead",
        );
      }
      const result = await provider.sendText({ account, to, text: dto.text });
      const messageId = await this.store(provider, conversation, account, result, {
        messageType: 'text',
        text: dto.text,
        livemode,
      });
      return { messageId, type: 'text' };
    }

    const template = await this.templates.findOneBy({
      accountId: account.id,
      name: dto.templateName,
      language: dto.templateLanguage,
      status: 'APPROVED',
    });
    if (!template) {
      throw new ApiError(
        'TEMPLATE_NOT_FOUND',
        `No approved template ${dto.templateName} in language ${dto.templateLanguage} for this integration`,
      );
    }
    const variables = dto.variables ?? {};
    const text = renderTemplate(template.body, variables);
    if (text === null) {
      throw ApiError.validation(
        'variables',
        `the rendered template exceeds ${RENDERED_TEMPLATE_MAX_LENGTH} characters once its placeholders are filled in`,
      );
    }
    const result = await provider.sendTemplate({ account, to, template, variables });
    const messageId = await this.store(provider, conversation, account, result, {
      livemode,
      messageType: 'template',
      text,
      templateName: template.name,
      templateLanguage: template.language,
    });
    return { messageId, type: 'template', template: { name: template.name, language: template.language } };
  }

  /** Stores an accepted message and moves the conversation and account in one transaction; maps a refusal. */
  private async store(
    provider: MessagingProvider,
    conversation: Conversation,
    account: MessagingAccount,
    result: SendResult,
    content: Pick<Message, 'messageType' | 'text' | 'livemode'> &
      Partial<Pick<Message, 'templateName' | 'templateLanguage'>>,
  ): Promise<string> {
    if (!result.ok) throw new ApiError(result.code, result.message);
    const id = uuidv7();
    const now = new Date();
    await this.dataSource.transaction(async (m) => {
      await m.insert(Message, {
        id,
        organizationId: conversation.organizationId,
        conversationId: conversation.id,
        accountId: account.id,
        direction: 'outbound',
        senderType: 'bot',
        deliveryStatus: 'accepted',
        providerMessageId: result.providerMessageId,
        timestamp: now,
        ...content,
      });
      await m
        .createQueryBuilder()
        .update(Conversation)
        .set({
          messageCount: () => 'message_count + 1',
          lastMessagePreview: previewOf(content.text),
          lastMessageDirection: 'outbound',
          lastActivityAt: () => 'GREATEST(last_activity_at, :now)',
        })
        .where('id = :id', { id: conversation.id })
        .setParameters({ now })
        .execute();
      await m
        .createQueryBuilder()
        .update(MessagingAccount)
        .set({
          messagesSent: () => 'messages_sent + 1',
          lastMessageAt: () => 'GREATEST(COALESCE(last_message_at, :now), :now)',
        })
        .where('id = :id', { id: account.id })
        .setParameters({ now })
        .execute();
    });
    await provider.afterStored({ accountId: account.id, providerMessageId: result.providerMessageId });
    return id;
  }
}
