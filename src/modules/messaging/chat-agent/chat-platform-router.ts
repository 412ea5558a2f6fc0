import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { ChatPlatform } from './chat-platform';
import { ChatPlatforms } from './chat-platforms';

/**
 * The platform that answers a conversation of one world: a test account always the simulator (README "Test and
 * live"); a live account the configured voice platform's chat API (VOICE_PROVIDER picks who answers chats, as it
 * picks who places calls).
 */
@Injectable()
export class ChatPlatformRouter {
  constructor(
    private readonly platforms: ChatPlatforms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  for(livemode: boolean): ChatPlatform {
    return this.platforms.of({ platform: livemode && this.config.voiceProvider === 'vapi' ? 'vapi' : 'simulator' });
  }
}
