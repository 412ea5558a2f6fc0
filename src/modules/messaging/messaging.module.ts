import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactsModule } from '../contacts/contacts.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminMessagingController } from './admin-messaging.controller';
import { AdminChatAgentController } from './chat-agent/admin-chat-agent.controller';
import { AnswerChatMessageJob } from './chat-agent/answer-chat-message.job';
import { AnswerMessageCommand } from './chat-agent/answer-message.command';
import { ChatAgent } from './chat-agent/chat-agent.entity';
import { ChatAgentsRepository } from './chat-agent/chat-agents.repository';
import { ConversationsRepository } from './conversations.repository';
import { MessagesRepository } from './messages.repository';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { MessagingTemplatesRepository } from './messaging-templates.repository';
import { ChatAgentsService } from './chat-agent/chat-agents.service';
import { ChatPlatformRouter } from './chat-agent/chat-platform-router';
import { ChatPlatforms } from './chat-agent/chat-platforms';
import { ChatScripts } from './chat-agent/chat-platform';
import { ChatAgentScripts } from './chat-agent/chat-agent-scripts';
import { ChatRepliesRepository } from './chat-agent/chat-replies.repository';
import { ChatReply } from './chat-agent/chat-reply.entity';
import { ConversationMovesCommand } from './chat-agent/conversation-moves.command';
import { ConversationMovesController } from './chat-agent/conversation-moves.controller';
import { ConversationSummaries } from './chat-agent/conversation-summaries';
import { AssistantsModule } from '../assistants/assistants.module';
import { CasesModule } from '../cases/cases.module';
import { Conversation } from './conversation.entity';
import { ConversationsService } from './conversations.service';
import { DeliveryStatusService } from './delivery-status.service';
import { EarlyDeliveryStatus } from './early-delivery-status.entity';
import { EarlyDeliveryStatusesRepository } from './early-delivery-statuses.repository';
import { Message } from './message.entity';
import { MessagingCredentials } from './messaging-credentials';
import { MessagingMediaService } from './messaging-media.service';
import { SealedTokensCheck } from './sealed-tokens-check';
import { SyncTemplatesCommand } from './sync-templates.command';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingAccountsService } from './messaging-accounts.service';
import { MessagingTemplate } from './messaging-template.entity';
import { MessagingController } from './messaging.controller';
import { MessagingEventBodies } from './messaging-event-bodies';
import { MessagingIngress } from './providers/messaging-ingress';
import { MessagingIngressApplier } from './providers/messaging-ingress-applier';
import { MessagingPlatforms } from './providers/messaging-platforms';
import { RecordInboundMessageCommand } from './record-inbound-message.command';
import { SendMessageCommand } from './send-message.command';
import { SendMessageJob } from './send-message.job';
import { SendMessageSweepJob } from './send-message-sweep.job';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      MessagingAccount,
      MessagingTemplate,
      Conversation,
      Message,
      EarlyDeliveryStatus,
      ChatAgent,
      ChatReply,
    ]),
    OrganizationsModule,
    // Inbound messages link or create the contact by phone.
    ContactsModule,
    // A STOP message lists the sender on the do-not-call ledger.
    DoNotCallModule,
    // The chat agent answers with the scripts and assistants calls use.
    CasesModule,
    AssistantsModule,
  ],
  controllers: [MessagingController, AdminMessagingController, AdminChatAgentController, ConversationMovesController],
  providers: [
    ChatAgentsRepository,
    ConversationsRepository,
    EarlyDeliveryStatusesRepository,
    MessagesRepository,
    MessagingAccountsRepository,
    MessagingTemplatesRepository,
    MessagingAccountsService,
    ConversationsService,
    DeliveryStatusService,
    RecordInboundMessageCommand,
    SendMessageCommand,
    // The send queue.
    SendMessageJob,
    SendMessageSweepJob,
    MessagingCredentials,
    SealedTokensCheck,
    MessagingMediaService,
    SyncTemplatesCommand,
    // Who carries an account's messages is the platform the account stores; its adapters are bound by
    // platforms/messaging, whose ingress reports through MessagingIngress.
    MessagingPlatforms,
    { provide: MessagingIngress, useClass: MessagingIngressApplier },
    // The chat agent (README "Chat agent").
    ChatAgentsService,
    ChatRepliesRepository,
    ConversationMovesCommand,
    MessagingEventBodies,
    ConversationSummaries,
    AnswerMessageCommand,
    AnswerChatMessageJob,
    // The chat platforms' adapters, bound by platforms/chat, and which one answers a conversation.
    ChatPlatforms,
    ChatPlatformRouter,
    { provide: ChatScripts, useClass: ChatAgentScripts },
  ],
  // The dialer's message follow-ups send through the very command the public API uses.
  exports: [
    MessagingAccountsService,
    ConversationsService,
    SendMessageCommand,
    ChatAgentsService,
    ChatPlatformRouter,
    ConversationMovesCommand,
    // For the platform layer (platforms/chat): the registry it binds and the scripts its adapters send.
    ChatPlatforms,
    ChatScripts,
    // For the platform layer (platforms/messaging): the registry it binds and an account's sealed token.
    MessagingPlatforms,
    MessagingCredentials,
    // The port the messaging platforms' ingress reports through.
    MessagingIngress,
  ],
})
export class MessagingModule {}
