import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Conversation } from './conversation.entity';
import { ConversationsRepository } from './conversations.repository';
import { DeliveryStatusService } from './delivery-status.service';
import { SendMediaMessageDto, SendMessageDto, SendTemplateMessageDto } from './dto/send-message.dto';
import { hasOneSource } from './dto/template-parameters.dto';
import { Message, SenderType } from './message.entity';
import { MessagesRepository } from './messages.repository';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { MessagingTemplatesRepository } from './messaging-templates.repository';
import { MessagingProvider, Recipient, ResumableSend, SendResult } from './providers/messaging-provider';
import { MessagingPlatforms } from './providers/messaging-platforms';
import { previewOf } from './record-inbound-message.command';
import { SendMessageJob } from './send-message.job';
import { RENDERED_TEMPLATE_MAX_LENGTH, renderTemplate } from './template-placeholders';
import { World } from '../../common/auth/world';
import { inTransaction } from '../../infra/database/tx';

export interface SentMessage {
  messageId: string;
  type: SendMessageDto['type'];
  template?: { name: string; language: string };
}

type StoredContent = Pick<Message, 'messageType' | 'text' | 'livemode'> &
  Partial<Pick<Message, 'templateName' | 'templateLanguage' | 'mediaCaption' | 'mediaUrl' | 'mediaId'>>;

/**
 * Sends one message into a conversation, enforcing the rules in order: the conversation and an active account
 * exist (404), free-form text and media only inside the 24-hour window (422), a template must be registered and
 * APPROVED in that language (404 TEMPLATE_NOT_FOUND, before the provider is asked); then the provider decides
 * (its refusals mapped as docs/providers.md lists). A test world's message (a `test` key's, on a test account) goes
 * to the simulator whatever MESSAGING_PROVIDER says (the platform its account was made on), and is stored marked `livemode = false` (README: "Test and
 * live").
 */
@Injectable()
export class SendMessageCommand {
  private readonly logger = new Logger(SendMessageCommand.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly conversations: ConversationsRepository,
    private readonly accounts: MessagingAccountsRepository,
    private readonly templates: MessagingTemplatesRepository,
    private readonly messages: MessagesRepository,
    private readonly platforms: MessagingPlatforms,
    private readonly statuses: DeliveryStatusService,
    private readonly sendQueue: SendMessageJob,
  ) {}

  /** `senderType`: who wrote it; `bot` for the API and the chat agent, `agent` for a person in the console. */
  async execute(world: World, dto: SendMessageDto, senderType: SenderType = 'bot'): Promise<SentMessage> {
    const conversation = await this.conversations.find(world, dto.conversationId);
    if (!conversation) throw ApiError.notFound('Conversation');
    const account = await this.accounts.findActive(world, conversation.integrationId);
    if (!account) throw ApiError.notFound('Active messaging integration');
    // The conversation's world is its account's, and so is its platform (a test account's is the simulator).
    const livemode = account.livemode;
    const provider = this.platforms.of(account);
    const to: Recipient = { phone: conversation.waUserPhone, userId: conversation.waUserId };
    const send = { provider, conversation, account, senderType };

    if (dto.type === 'template') return this.sendTemplate(send, to, dto, livemode);
    if (!conversation.sessionExpiresAt || Date.now() > conversation.sessionExpiresAt.getTime()) {
      throw new ApiError(
        'SESSION_EXPIRED',
        "The 24-hour window after the user's last message has closed; send a template instead",
      );
    }
    if (dto.type === 'text') {
      const messageId = await this.deliver(send, { messageType: 'text', text: dto.text, livemode }, (tag) =>
        provider.sendText({ account, to, text: dto.text, ...tag }),
      );
      return { messageId, type: 'text' };
    }
    return this.sendMedia(send, to, dto, livemode);
  }

  private async sendMedia(send: Send, to: Recipient, dto: SendMediaMessageDto, livemode: boolean) {
    if (!hasOneSource(dto)) throw ApiError.validation('link', 'give either an https link or a mediaId');
    await this.assertReceived(send, dto.mediaId, 'mediaId');
    const media = { link: dto.link, id: dto.mediaId, caption: dto.caption, filename: dto.filename };
    const content: StoredContent = {
      livemode,
      messageType: dto.type,
      text: dto.caption ?? '',
      mediaCaption: dto.caption ?? null,
      mediaUrl: dto.link ?? null,
      mediaId: dto.mediaId ?? null,
    };
    const messageId = await this.deliver(send, content, (tag) =>
      send.provider.sendMedia({ account: send.account, to, mediaType: dto.type, media, ...tag }),
    );
    return { messageId, type: dto.type };
  }

  private async sendTemplate(send: Send, to: Recipient, dto: SendTemplateMessageDto, livemode: boolean) {
    const template = await this.templates.findApproved(send.account.id, dto.templateName, dto.templateLanguage);
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
    const { header } = dto;
    if (header && (header.type === 'text' ? !header.text : !hasOneSource(header))) {
      throw ApiError.validation('header', 'a text header needs text; a media header either an https link or a mediaId');
    }
    await this.assertReceived(send, header?.mediaId, 'header.mediaId');
    const content: StoredContent = {
      livemode,
      messageType: 'template',
      text,
      templateName: template.name,
      templateLanguage: template.language,
    };
    const messageId = await this.deliver(send, content, (tag) =>
      send.provider.sendTemplate({
        account: send.account,
        to,
        template,
        variables,
        header:
          header &&
          (header.type === 'text'
            ? { type: 'text', text: header.text! }
            : { type: header.type, link: header.link, id: header.mediaId }),
        buttons: dto.buttons,
        ...tag,
      }),
    );
    return { messageId, type: 'template' as const, template: { name: template.name, language: template.language } };
  }

  /**
   * Through the real provider an account sends by id only a file one of its users sent it: the process-wide token
   * reaches the files of every account on it, so an id chosen freely would let a tenant forward anyone's file.
   * The simulator (test accounts, or no provider configured) holds no files and takes any id.
   */
  private async assertReceived(send: Send, mediaId: string | undefined, field: string): Promise<void> {
    if (!mediaId || send.account.platform === 'simulator') return;
    if (await this.messages.receivedMedia(send.account.id, mediaId)) return;
    throw ApiError.validation(field, `${field} must name a file a user sent to this messaging account`);
  }

  /**
   * Stores the message first (`accepted`, no provider id yet), so that a send whose answer is lost is still ours
   * to reconcile; then makes the provider's first attempt under our id:
   * - taken: the provider id is stored, and the conversation and account move, in one transaction; then status
   *   reports that arrived before the id was known are applied;
   * - refused: the row is removed and the refusal answered (its provider code in details), nothing stays stored;
   * - `later` (paced, rate-limited, the provider's trouble, or unanswered): the conversation and account move as
   *   for a taken message and the send queue finishes the send (SendMessageJob); the caller gets the message,
   *   still `accepted`, and its later fate by `message.sent` or `message.failed`. The provider's request is kept
   *   on the row before the first attempt, so when the job cannot be queued the message is answered all the same
   *   (it is stored and will be sent): the send sweeper (SendMessageSweepJob) queues it from the row.
   */
  private async deliver(
    send: Send,
    content: StoredContent,
    attempt: (tag: SendTag) => Promise<SendResult>,
  ): Promise<string> {
    const { conversation, account } = send;
    const id = uuidv7();
    const now = new Date();
    // Single statements (the insert, and the delete when the send is refused) need no transaction of their own.
    await this.messages.insert(this.dataSource.manager, {
      id,
      organizationId: conversation.organizationId,
      conversationId: conversation.id,
      accountId: account.id,
      direction: 'outbound',
      senderType: send.senderType,
      deliveryStatus: 'accepted',
      providerMessageId: null,
      timestamp: now,
      ...content,
    });
    const unstore = () => this.messages.deleteUnsent(this.dataSource.manager, id);
    const keep = (request: ResumableSend) => this.messages.keepSend(id, request);
    const result = await attempt({ messageId: id, keep }).catch(async (error: unknown) => {
      await unstore();
      throw error;
    });
    if (result.ok === false) {
      await unstore();
      const details = result.providerError
        ? [{ field: 'provider', message: result.providerError.title, providerCode: result.providerError.code }]
        : undefined;
      throw new ApiError(result.code, result.message, details);
    }
    await inTransaction(this.dataSource, async (m) => {
      if (result.ok === true) await this.messages.attachProviderId(m, account.id, id, result.providerMessageId);
      await this.conversations.recordOutbound(
        m,
        conversation.id,
        previewOf(content.text || `[${content.messageType}]`),
        now,
      );
      await this.accounts.recordSent(m, account.id, now);
    });
    if (result.ok === 'later') {
      await this.sendQueue.enqueue(id, result, result.reason === 'paced' ? 0 : 1).catch((error: unknown) => {
        this.logger.error({ messageId: id, err: error }, 'Send job not queued; the send sweeper queues it');
      });
      return id;
    }
    const ref = { accountId: account.id, providerMessageId: result.providerMessageId };
    await this.statuses.applyEarly(ref.accountId, ref.providerMessageId);
    await send.provider.afterStored(ref);
    return id;
  }
}

/** What every send carries for the stored message: our id, and where the provider keeps its request. */
interface SendTag {
  messageId: string;
  keep: (request: ResumableSend) => Promise<void>;
}

interface Send {
  provider: MessagingProvider;
  senderType: SenderType;
  conversation: Conversation;
  account: MessagingAccount;
}
