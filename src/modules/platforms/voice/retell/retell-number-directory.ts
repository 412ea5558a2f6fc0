import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { voicePlatformConfigured } from '../../../../infra/config/platforms';
import { ImportedNumber, NumberDirectory, VoicePlatformNumbers } from '../../../phone-numbers/voice-platform-numbers';
import { RetellClient } from './retell-client';
import { retellBaseUrl } from './retell-server';

/**
 * Retell keys numbers by the number itself: an admin-created number on `retell` is looked up
 * (GET /get-phone-number/{number}) and its inbound webhook pointed at `/platform/retell/inbound`, so the inbound
 * calls Retell answers on it reach us; its platform id is the E.164 number, its telephony Retell's number type.
 */
@Injectable()
export class RetellNumberDirectory implements NumberDirectory, OnModuleInit {
  constructor(
    private readonly client: RetellClient,
    private readonly numbers: VoicePlatformNumbers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (voicePlatformConfigured(this.config, 'retell')) this.numbers.register('retell', this);
  }

  async importNumber(number: string): Promise<ImportedNumber | null> {
    const found = await this.client.getPhoneNumber(number);
    if (!found) return null;
    await this.client.updatePhoneNumber(found.phone_number, {
      inbound_webhook_url: `${retellBaseUrl(this.config)}/inbound`,
    });
    // Who carries it on Retell: `retell-twilio`, `retell-telnyx` or `custom` (a SIP trunk of the customer's).
    return { providerId: found.phone_number, telephony: found.phone_number_type };
  }
}
