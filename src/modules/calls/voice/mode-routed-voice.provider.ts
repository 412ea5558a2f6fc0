import type { Call } from '../call.entity';
import { EndOfCallReport, ProviderCallState, VoiceProvider } from './voice-provider';

/**
 * docs/contracts/modes.md: a call placed with a `test` key (`livemode = false`) is always played by the simulator, whatever
 * VOICE_PROVIDER says; a live call goes to the configured platform. Decided per call, so dispatch and
 * supervision never need to know which.
 */
export class ModeRoutedVoiceProvider extends VoiceProvider {
  constructor(
    private readonly live: VoiceProvider,
    private readonly simulator: VoiceProvider,
  ) {
    super();
  }

  placeCall(call: Call): Promise<{ providerCallId: string }> {
    return this.route(call).placeCall(call);
  }

  getCall(call: Call): Promise<ProviderCallState | null> {
    return this.route(call).getCall(call);
  }

  endCall(call: Call): Promise<EndOfCallReport | null> {
    return this.route(call).endCall(call);
  }

  private route(call: Call): VoiceProvider {
    return call.livemode ? this.live : this.simulator;
  }
}
