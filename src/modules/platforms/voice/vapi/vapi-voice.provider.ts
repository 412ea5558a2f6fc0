import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { DEFAULT_VOICE_SETTINGS } from '../../../assistants/voice-settings';
import type { Call } from '../../../calls/call.entity';
import { VapiCallDeferred, VapiCallRejected, VapiClient } from '../../vapi/vapi-client';
import { VapiUnsupportedSetting } from '../../vapi/vapi-model';
import {
  EndOfCallReport,
  PlaceCallResult,
  ProviderCallState,
  VoiceProvider,
} from '../../../calls/voice/voice-provider';
import { vapiCreateCallBody } from './vapi-assistant';
import { vapiServer } from './vapi-server';
import { isApiCallStatus, toReport } from './vapi-messages';

/**
 * The Vapi platform (docs/providers.md): outbound calls through POST /call with an inline assistant, built from
 * what the call copied when it was made (its number's Vapi id, its assistant's voice settings).
 */
@Injectable()
export class VapiVoiceProvider extends VoiceProvider {
  private readonly logger = new Logger(VapiVoiceProvider.name);

  constructor(
    private readonly client: VapiClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  get reportGraceMs(): number {
    return this.config.vapi.reportGraceMs;
  }

  /** The client's refusals (a full pool, a 4xx, Vapi unreachable past its retries) become the port's results. */
  async placeCall(call: Call): Promise<PlaceCallResult> {
    if (!call.providerNumberId) {
      return {
        kind: 'rejected',
        endedReason: `phone-number-not-configured: ${call.callFrom} has no voice platform id`,
      };
    }
    const settings = call.voiceSettings ?? DEFAULT_VOICE_SETTINGS;
    const { maxDurationMs } = this.config.callSupervision;
    try {
      const body = vapiCreateCallBody(call, call.providerNumberId, settings, maxDurationMs, vapiServer(this.config));
      const created = await this.client.createCall(body);
      return { kind: 'placed', providerCallId: created.id };
    } catch (error) {
      if (error instanceof VapiCallDeferred) {
        const { reason, retryAfterMs, blockedId } = error;
        return { kind: 'deferred', reason, retryAfterMs, blockedProviderCallId: blockedId };
      }
      if (error instanceof VapiCallRejected) {
        const { endedReason, unavailable, uncertain } = error;
        return { kind: 'rejected', endedReason, unavailable, uncertain };
      }
      if (error instanceof VapiUnsupportedSetting) return { kind: 'rejected', endedReason: error.message };
      throw error;
    }
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
   * GET /call filtered by the call's number and time: the one whose assistant metadata names our call (the
   * transient assistant carries it), other than the attempts a full pool turned away.
   */
  override async findPlaced(call: Call, since: Date): Promise<string | null> {
    if (!call.providerNumberId) return null;
    const blocked = new Set(call.blockedApiCallIds ?? []);
    const placed = await this.client.listCalls(call.providerNumberId, since);
    const ours = placed.find(
      (c) => (c.assistant?.metadata as { callId?: unknown } | undefined)?.callId === call.id && !blocked.has(c.id),
    );
    return ours?.id ?? null;
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
}
