import { Injectable } from '@nestjs/common';
import type { MessagingPlatform } from '../../../infra/config/platforms';
import type { MessagingAccount } from '../messaging-account.entity';
import { MessagingProvider } from './messaging-provider';
import { MessagingSimulatorProvider } from './simulator/messaging-simulator.provider';
import { WhatsAppCloudProvider } from './whatsapp/whatsapp-cloud.provider';

/**
 * Every messaging platform's adapter, keyed by the platform an account stores (`messaging_accounts.platform`,
 * chosen when the account is made: a test account the simulator, a live one MESSAGING_PROVIDER's). A platform
 * without an adapter does not compile.
 */
@Injectable()
export class MessagingPlatforms {
  private readonly adapters: Readonly<Record<MessagingPlatform, MessagingProvider>>;

  constructor(simulator: MessagingSimulatorProvider, whatsapp: WhatsAppCloudProvider) {
    this.adapters = { simulator, whatsapp };
  }

  /** The adapter of the platform the account was made on. */
  of(account: Pick<MessagingAccount, 'platform'>): MessagingProvider {
    return this.adapters[account.platform];
  }
}
