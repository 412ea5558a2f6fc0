import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Vapi } from '@vapi-ai/server-sdk';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { voicePlatformConfigured } from '../../../../infra/config/platforms';
import { ImportedNumber, NumberDirectory, VoicePlatformNumbers } from '../../../phone-numbers/voice-platform-numbers';
import { VapiClient } from '../../vapi/vapi-client';
import { vapiServer } from './vapi-server';

/**
 * Numbers imported, not typed (docs/providers.md): an admin-created number without a platform id is looked up
 * in the Vapi account (GET /phone-number) and its server pointed at this service (PATCH), so the inbound calls
 * Vapi answers on it reach us (assistant-request) with our credential and backoff. Registered only when
 * whenever Vapi is configured (a number is imported from the platform the number is created on).
 */
@Injectable()
export class VapiNumberDirectory implements NumberDirectory, OnModuleInit {
  constructor(
    private readonly client: VapiClient,
    private readonly numbers: VoicePlatformNumbers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (voicePlatformConfigured(this.config, 'vapi')) this.numbers.register('vapi', this);
  }

  async importNumber(number: string): Promise<ImportedNumber | null> {
    const found = (await this.client.listPhoneNumbers()).find((n) => n.number === number);
    if (!found) return null;
    // A number bought or set up in Vapi's dashboard may name an assistant, squad or workflow: Vapi then answers
    // its calls with that and never sends us `assistant-request`. Null clears each (Vapi takes null for "unset",
    // although its SDK types and OpenAPI document list only strings), so our server is asked for every call.
    const cleared = { assistantId: null, squadId: null, workflowId: null } as unknown as Pick<
      Vapi.UpdateVapiPhoneNumberDto,
      'assistantId' | 'squadId' | 'workflowId'
    >;
    await this.client.updatePhoneNumber(found.id, {
      provider: found.provider,
      server: vapiServer(this.config),
      ...cleared,
    } as Vapi.UpdatePhoneNumbersRequestBody);
    return { providerId: found.id, telephony: found.provider };
  }
}
