import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ContactsService } from '../contacts/contacts.service';
import { AddDoNotCallCommand } from '../do-not-call/add-do-not-call.command';
import { isOptOut } from '../do-not-call/opt-out-keywords';
import { OutboxService } from '../outbox/outbox.service';
import { ConversationsRepository } from './conversations.repository';
import { MessageContext, MessageReferral } from './message-origin';
import { MessagePayload } from './message-payload';
import { messageEventPayload } from './messaging-event-bodies';
import { MessagingAccount } from './messaging-account.entity';
import { MessagesRepository } from './messages.repository';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { inTransaction } from '../../infra/database/tx';

/** The free-form window the provider allows after a user's message. */
export const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;
const PREVIEW_LENGTH = 200;

export interface InboundMessage {
  account: MessagingAccount;
  /** The user's phone, E.164; empty when the provider names the user only by `userId`. */
  from: string;
  /** The provider's business-scoped id of the user, when it sends one. */
  userId?: string | null;
  /** The user's profile name, when the provider tells it. */
  name?: string;
  providerMessageId: string;
  messageType: string;
  text: string;
  mediaUrl?: string | null;
  mediaCaption?: string | null;
  mediaId?: string | null;
  payload?: MessagePayload | null;
  /** What the message answers or was forwarded as, and the ad or post the user came from (WhatsApp). */
  context?: MessageContext | null;
  referral?: MessageReferral | null;
  timestamp: Date;
}

export interface InboundResult {
  conversationId: string;
  messageId: string;
  /** The provider had already delivered this message; nothing changed. */
  duplicate: boolean;
}

export const previewOf = (text: string) =>
  text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;

/**
 * A user's message arrives (provider webhook or simulator): in one transaction, find or create the conversation
 * for (account, user phone), link or create the contact by phone, store the message once per provider id, and
 * move the conversation's window and the account's counters. A system message (the user changed number or
 * provider id) moves the thread to the user's new name instead (ConversationsRepository.followUser). An opt-out
 * message (STOP and its variants) also lists the sender on the do-not-call ledger, in the same transaction.
 */
@Injectable()
export class RecordInboundMessageCommand {
  constructor(
    private readonly dataSource: DataSource,
    private readonly contacts: ContactsService,
    private readonly addDoNotCall: AddDoNotCallCommand,
    private readonly outbox: OutboxService,
    private readonly messages: MessagesRepository,
    private readonly conversations: ConversationsRepository,
    private readonly accounts: MessagingAccountsRepository,
  ) {}

  execute(input: InboundMessage): Promise<InboundResult> {
    return inTransaction(this.dataSource, async (m) => {
      const { account } = input;
      // A user known only by the provider's id has no phone to file a contact under.
      const contactId = input.from
        ? (await this.contacts.findOrCreateByPhone(m, account, input.from, input.name ?? '')).id
        : null;
      const conversation = await this.conversations.insertOrLockThread(m, {
        id: uuidv7(),
        organizationId: account.organizationId,
        livemode: account.livemode,
        integrationId: account.id,
        status: 'active',
        waUserPhone: input.from,
        waUserId: input.userId ?? null,
        waUserName: input.name ?? '',
        contactId,
        lastActivityAt: input.timestamp,
      });

      const messageId = uuidv7();
      const inserted = await this.messages.insertUnlessKnown(m, {
        id: messageId,
        organizationId: account.organizationId,
        livemode: account.livemode,
        conversationId: conversation.id,
        accountId: account.id,
        direction: 'inbound',
        senderType: 'user',
        messageType: input.messageType,
        text: input.text,
        mediaUrl: input.mediaUrl ?? null,
        mediaCaption: input.mediaCaption ?? null,
        mediaId: input.mediaId ?? null,
        payload: input.payload ?? null,
        context: input.context ?? null,
        referral: input.referral ?? null,
        deliveryStatus: null,
        providerMessageId: input.providerMessageId,
        timestamp: input.timestamp,
      });
      if (!inserted) {
        const existing = await this.messages.getIn(m, {
          accountId: account.id,
          providerMessageId: input.providerMessageId,
        });
        return { conversationId: existing.conversationId, messageId: existing.id, duplicate: true };
      }

      const preview = previewOf(input.text || `[${input.messageType}]`);
      const system = input.payload?.kind === 'system' ? input.payload : null;
      if (system) {
        await this.conversations.followUser(m, conversation.id, {
          phone: system.newPhone,
          userId: system.newUserId,
          at: input.timestamp,
          preview,
        });
      } else {
        await this.conversations.recordInbound(m, conversation.id, {
          timestamp: input.timestamp,
          preview,
          contactId,
          userId: input.userId ?? null,
          phone: input.from,
          name: input.name,
        });
      }
      await this.accounts.recordReceived(m, account.id, input.timestamp);
      const stored = await this.messages.getIn(m, { id: messageId });
      await this.outbox.record(m, account, 'message.received', messageEventPayload(stored));
      if (input.from && !system && isOptOut(input.text)) {
        await this.addDoNotCall.execute(m, account, {
          number: input.from,
          reason: `Chat message: ${input.text.trim()}`,
          source: 'message',
        });
      }
      return { conversationId: conversation.id, messageId, duplicate: false };
    });
  }
}
