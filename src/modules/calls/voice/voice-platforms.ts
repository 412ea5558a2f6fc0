import { Injectable } from '@nestjs/common';
import type { VoicePlatform } from '../../../infra/config/platforms';
import type { Call } from '../call.entity';
import { VoiceSimulatorProvider } from './simulator/voice-simulator.provider';
import { VapiVoiceProvider } from './vapi/vapi-voice.provider';
import { VoiceProvider } from './voice-provider';

/**
 * Every voice platform's adapter, keyed by the platform a call stores (`calls.platform`, chosen once when the
 * call is made). Placement, supervision, report recovery and a live end all ask the row's platform, so changing
 * VOICE_PROVIDER (the default for new numbers) never moves a call already made. Typed by the platform list: a
 * platform without an adapter does not compile.
 */
@Injectable()
export class VoicePlatforms {
  private readonly adapters: Readonly<Record<VoicePlatform, VoiceProvider>>;

  constructor(simulator: VoiceSimulatorProvider, vapi: VapiVoiceProvider) {
    this.adapters = { simulator, vapi };
  }

  /** The adapter of the platform the call was made on. */
  of(call: Pick<Call, 'platform'>): VoiceProvider {
    return this.adapters[call.platform];
  }
}
