import { Injectable } from '@nestjs/common';
import { PlatformRegistry } from '../../../common/providers/platform-registry';
import type { MessagingPlatform } from '../../../infra/config/platforms';
import { MessagingProvider } from './messaging-provider';

/**
 * Every messaging platform's adapter, keyed by `messaging_accounts.platform` (chosen when the account is made: a
 * test account the simulator, a live one MESSAGING_PROVIDER's). The adapters live in the platform layer
 * (platforms/messaging), whose module binds them here when it is built.
 */
@Injectable()
export class MessagingPlatforms extends PlatformRegistry<MessagingPlatform, MessagingProvider> {
  constructor() {
    super();
  }
}
