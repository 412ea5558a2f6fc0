import type { ModelConfig, TranscriberConfig, VoiceConfig } from '../../../assistants/outbound-assistant.entity';
import type { Call } from '../../call.entity';

/** The voice settings of an assistant as the platform needs them (an outbound assistant's, or the defaults). */
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

/** Vapi's transient assistant (CreateAssistantDTO), the subset this platform sets. */
export interface VapiAssistant {
  firstMessage: string;
  model: {
    provider: string;
    model: string;
    temperature: number;
    messages: Array<{ role: 'system'; content: string }>;
    tools?: Array<{ type: 'dtmf' }>;
  };
  voice: VoiceConfig;
  transcriber: TranscriberConfig;
  backgroundDenoisingEnabled: boolean;
  backchannelingEnabled: boolean;
  maxDurationSeconds: number;
  /** Echoed on the call in every server message: how a message finds our call before its id is known. */
  metadata: { callId: string };
}

/** Vapi's POST /call body (CreateCallDTO) for an outbound phone call with a transient assistant. */
export interface VapiCreateCallBody {
  phoneNumberId: string;
  customer: { number: string };
  assistant: VapiAssistant;
  assistantOverrides?: { variableValues: Record<string, string> };
}

/** Vapi accepts maxDurationSeconds from 10 s. */
const toMaxDurationSeconds = (ms: number) => Math.max(10, Math.ceil(ms / 1000));

/**
 * The inline assistant of one call: the resolved first message and system prompt, the voice settings, and our
 * call id. The dial-keypad capability is Vapi's `dtmf` tool; the other flags are assistant fields.
 */
export function vapiAssistant(
  call: Pick<Call, 'id' | 'firstMessage' | 'systemPrompt'>,
  settings: VoiceSettings,
  maxDurationMs: number,
): VapiAssistant {
  const voice = Object.fromEntries(Object.entries(settings.voice).filter(([, v]) => v !== undefined && v !== null));
  return {
    firstMessage: call.firstMessage ?? '',
    model: {
      provider: settings.model.provider,
      model: settings.model.model,
      temperature: settings.model.temperature,
      messages: [{ role: 'system', content: call.systemPrompt ?? '' }],
      ...(settings.dialKeypadFunctionEnabled ? { tools: [{ type: 'dtmf' as const }] } : {}),
    },
    voice: voice as unknown as VoiceConfig,
    transcriber: { ...settings.transcriber },
    backgroundDenoisingEnabled: settings.backgroundDenoisingEnabled,
    backchannelingEnabled: settings.backchannelingEnabled,
    maxDurationSeconds: toMaxDurationSeconds(maxDurationMs),
    metadata: { callId: call.id },
  };
}

export function vapiCreateCallBody(
  call: Pick<Call, 'id' | 'firstMessage' | 'systemPrompt' | 'callTo' | 'variableValues'>,
  phoneNumberId: string,
  settings: VoiceSettings,
  maxDurationMs: number,
): VapiCreateCallBody {
  return {
    phoneNumberId,
    customer: { number: call.callTo },
    assistant: vapiAssistant(call, settings, maxDurationMs),
    ...(call.variableValues ? { assistantOverrides: { variableValues: { ...call.variableValues } } } : {}),
  };
}
