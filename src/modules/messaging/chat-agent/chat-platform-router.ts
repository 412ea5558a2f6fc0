import { Injectable } from '@nestjs/common';
import { ChatPlatform } from './chat-platform';
import { SimulatorChatPlatform } from './simulator-chat-platform';

/**
 * The platform that answers a conversation of one world: a test account always the simulator (README "Test and
 * live"); a live account the configured voice platform's chat API.
 */
@Injectable()
export class ChatPlatformRouter {
  constructor(
    private readonly configured: ChatPlatform,
    private readonly simulator: SimulatorChatPlatform,
  ) {}

  for(livemode: boolean): ChatPlatform {
    return livemode ? this.configured : this.simulator;
  }
}
