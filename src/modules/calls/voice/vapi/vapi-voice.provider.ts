import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { OutboundAssistantsService } from '../../../assistants/outbound-assistants.service';
import { PhoneNumbersService } from '../../../phone-numbers/phone-numbers.service';
import type { Call } from '../../call.entity';
import { EndOfCallReport, ProviderCallState, VoiceCallRejected, VoiceProvider } from '../voice-provider';
import { DEFAULT_VOICE_SETTINGS, VoiceSettings, vapiCreateCallBody } from './vapi-assistant';
import { VapiClient } from './vapi-client';
import { vapiServer } from './vapi-server';
import { isApiCallStatus, toReport } from './vapi-messages';

/** VOICE_PROVIDER=vapi (docs/providers.md): outbound calls through POST /call with an inline assistant. */
@Injectable()
export class VapiVoiceProvider extends VoiceProvider {
  private readonly logger = new Logger(VapiVoiceProvider.name);

  constructor(
    private readonly client: VapiClient,
    private readonly numbers: PhoneNumbersService,
    private readonly assistants: OutboundAssistantsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async placeCall(call: Call): Promise<{ providerCallId: string }> {
    const number = await this.numbers.findOwned(call.organizationId, call.callFrom);
    if (!number?.providerId) {
      throw new VoiceCallRejected(`phone-number-not-configured: ${call.callFrom} has no voice platform id`);
    }
    const settings = await this.voiceSettings(call);
    const { maxDurationMs } = this.config.callSupervision;
    const body = vapiCreateCallBody(call, number.providerId, settings, maxDurationMs, vapiServer(this.config));
    const created = await this.client.createCall(body);
    return { providerCallId: created.id };
  }

  async getCall(call: Call): Promise<ProviderCallState | null> {
    if (!call.apiCallId) return null;
    try {
      const found = await this.client.getCall(call.apiCallId);
      if (!found || !isApiCallStatus(found.status)) return null;
      return { status: found.status, report: found.status === 'ended' ? toReport(found) : null };
    } catch (error) {
      this.logger.warn({ callId: call.id, err: (error as Error).message }, 'Vapi could not say how the call is');
      return null;
    }
  }

  /**
   * Ends a live call through the live-call control URL Vapi gives each call (`monitor.controlUrl`, read from
   * GET /call/{id}); Vapi then reports the end with its usual messages, so nothing is finished here.
   */
  async endCall(call: Call): Promise<EndOfCallReport | null> {
    if (!call.apiCallId) throw new Error('the call has not reached Vapi yet');
    const found = await this.client.getCall(call.apiCallId);
    const controlUrl = found?.monitor?.controlUrl;
    if (!controlUrl) throw new Error('Vapi gave no control URL for the call');
    await this.client.controlCall(controlUrl, { type: 'end-call' });
    return null;
  }

  /** The call's outbound assistant, else the organization's default one, else the built-in settings. */
  private async voiceSettings(call: Call): Promise<VoiceSettings> {
    const assistant = call.assistantConfigId
      ? await this.assistants.get(call.organizationId, call.assistantConfigId).catch(() => null)
      : await this.assistants.getDefault(call.organizationId);
    return assistant ?? DEFAULT_VOICE_SETTINGS;
  }
}
