import { Injectable } from '@nestjs/common';
import { PlatformRegistry } from '../../../common/providers/platform-registry';
import type { MessagingPlatform } from '../../../infra/config/platforms';
import { MessagingProvider } from './messaging-provider';
import { MessagingSimulatorProvider } from './simulator/messaging-simulator.provider';
import { WhatsAppCloudProvider } from './whatsapp/whatsapp-cloud.provider';

/**
 * Every messaging platform's adapter, keyed by `messaging_accounts.platform` (chosen when the account is made: a
 * test account the simulator, a live one MESSAGING_PROVIDER's).
 */
@Injectable()
export class MessagingPlatforms extends PlatformRegistry<MessagingPlatform, MessagingProvider> {
  constructor(simulator: MessagingSimulatorProvider, whatsapp: WhatsAppCloudProvider) {
    super({ simulator, whatsapp });
  }
}
