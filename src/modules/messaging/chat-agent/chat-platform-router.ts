import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { ChatPlatform } from './chat-platform';
import { ChatPlatforms } from './chat-platforms';
import type { ChatAgent } from './chat-agent.entity';

/**
 * The platform that answers: a chat agent's is the one its row stores (fixed when the agent was first set, a test
 * account's always the simulator); a scenario run, which has no account, is played on its world's (a test key's
 * on the simulator, a live key's on the voice platform VOICE_PROVIDER names when it has a chat API).
 */
@Injectable()
export class ChatPlatformRouter {
  constructor(
    private readonly platforms: ChatPlatforms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The agent's own platform. */
  of(agent: ChatAgent): ChatPlatform {
    return this.platforms.of(agent);
  }

  /** The platform of a world (scenario runs). */
  forWorld(livemode: boolean): ChatPlatform {
    return this.platforms.of({ platform: livemode && this.config.voiceProvider === 'vapi' ? 'vapi' : 'simulator' });
  }
}
