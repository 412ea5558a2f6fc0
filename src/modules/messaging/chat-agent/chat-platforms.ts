import { Injectable } from '@nestjs/common';
import { PlatformRegistry } from '../../../common/providers/platform-registry';
import type { ChatPlatformName } from '../../../infra/config/platforms';
import { ChatPlatform } from './chat-platform';

/**
 * Every chat platform's adapter, keyed by name. The adapters live in the platform layer (platforms/chat), whose
 * module binds them here when it is built; the chat agent asks ChatPlatformRouter which one serves a conversation.
 */
@Injectable()
export class ChatPlatforms extends PlatformRegistry<ChatPlatformName, ChatPlatform> {
  constructor() {
    super();
  }
}
