import type { ModelConfig, OutboundAssistant, TranscriberConfig, VoiceConfig } from './outbound-assistant.entity';

/** The voice settings of an assistant as a voice platform needs them (an outbound assistant's, or the defaults). */
export interface VoiceSettings {
  voice: VoiceConfig;
  model: ModelConfig;
  transcriber: TranscriberConfig;
  dialKeypadFunctionEnabled: boolean;
  backchannelingEnabled: boolean;
  backgroundDenoisingEnabled: boolean;
}

/**
 * Used when a call names no outbound assistant and the organization has no default one, and for inbound
 * assistants (which carry only a prompt). Mirrors the outbound assistant's own defaults.
 */
export const DEFAULT_VOICE_SETTINGS: VoiceSettings = Object.freeze({
  voice: { provider: 'vapi', voiceId: 'Elliot' },
  model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 },
  transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
  dialKeypadFunctionEnabled: false,
  backchannelingEnabled: true,
  backgroundDenoisingEnabled: true,
});

/** The settings a call keeps from its assistant (copied, so a later edit of the assistant does not change it). */
export function voiceSettingsOf(assistant: OutboundAssistant | null): VoiceSettings {
  if (!assistant) return DEFAULT_VOICE_SETTINGS;
  const { voice, model, transcriber, dialKeypadFunctionEnabled, backchannelingEnabled, backgroundDenoisingEnabled } =
    assistant;
  return { voice, model, transcriber, dialKeypadFunctionEnabled, backchannelingEnabled, backgroundDenoisingEnabled };
}
