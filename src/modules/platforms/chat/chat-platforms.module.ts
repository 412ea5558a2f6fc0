import { Module } from '@nestjs/common';
import { ChatPlatforms } from '../../messaging/chat-agent/chat-platforms';
import { MessagingModule } from '../../messaging/messaging.module';
import { VapiModule } from '../vapi/vapi.module';
import { SimulatorChatPlatform } from './simulator/simulator-chat-platform';
import { VapiChatPlatform } from './vapi/vapi-chat-platform';

/**
 * The chat agent's platforms: the simulator and Vapi's chat API. It imports the messaging module and binds the
 * adapters into its registry; messaging never imports it (docs/architecture.md, "Outside platforms").
 */
@Module({
  imports: [MessagingModule, VapiModule],
  providers: [SimulatorChatPlatform, VapiChatPlatform],
})
export class ChatPlatformsModule {
  // Bound while the application is built, before any job could ask for a conversation's platform.
  constructor(registry: ChatPlatforms, simulator: SimulatorChatPlatform, vapi: VapiChatPlatform) {
    registry.bind({ simulator, vapi });
  }
}
