import { escapeLiquid } from '../../vapi/vapi-liquid';
import type { Vapi } from '@vapi-ai/server-sdk';
import type { TranscriberConfig, VoiceConfig } from '../../../assistants/outbound-assistant.entity';
import type { VoiceSettings } from '../../../assistants/voice-settings';
import type { Call } from '../../../calls/call.entity';
import { isKnown, unsupported, vapiModel } from '../../vapi/vapi-model';
import { vapiServerMessages } from './vapi-server';
import { vapiAnalysisPlan, vapiVoicemail } from './vapi-outcomes';
import { vapiModelTools } from '../../vapi/vapi-tools';

type VapiVoice = Vapi.CreateAssistantDtoVoice;
type VapiTranscriber = Vapi.CreateAssistantDtoTranscriber;
type Variant<U, P> = Extract<U, { provider: P }>;

/**
 * Which of our optional voice fields each Vapi voice provider takes. The key set is every provider in Vapi's
 * `CreateAssistantDto.voice`, and each listed field must exist on that provider's type: tsc keeps this table
 * true to the SDK, and a field a provider does not take is never sent (Vapi refuses unknown properties).
 */
const VOICE_FIELDS: { [P in VapiVoice['provider']]: ReadonlyArray<keyof VoiceConfig & keyof Variant<VapiVoice, P>> } = {
  '11labs': ['model', 'language', 'stability', 'similarityBoost', 'speed'],
  azure: ['speed'],
  cartesia: ['model', 'language'],
  'custom-voice': [],
  deepgram: ['model'],
  hume: ['model'],
  inworld: ['model'],
  lmnt: ['language', 'speed'],
  microsoft: [],
  minimax: ['model', 'speed'],
  neuphonic: ['model', 'language', 'speed'],
  openai: ['model', 'speed'],
  playht: ['model', 'language', 'speed'],
  'rime-ai': ['model', 'language', 'speed'],
  sesame: ['model'],
  'smallest-ai': ['model', 'speed'],
  tavus: [],
  vapi: ['language', 'speed'],
  wellsaid: ['model'],
  xai: ['language'],
};

/** Every Vapi transcriber provider, with the fields of ours it takes (same rule as VOICE_FIELDS). */
const TRANSCRIBER_FIELDS: {
  [P in VapiTranscriber['provider']]: ReadonlyArray<keyof TranscriberConfig & keyof Variant<VapiTranscriber, P>>;
} = {
  'assembly-ai': ['language'],
  azure: ['language'],
  'custom-transcriber': [],
  deepgram: ['model', 'language'],
  '11labs': ['model', 'language'],
  gladia: ['model'],
  google: ['model', 'language'],
  speechmatics: ['model', 'language'],
  talkscriber: ['model', 'language'],
  openai: ['model', 'language'],
  cartesia: ['model', 'language'],
  soniox: ['model', 'language'],
  xai: ['model', 'language'],
  vapi: ['language'],
};

/** Copies the fields of `source` that `fields` names and that are set (Vapi refuses nulls in most fields). */
function pick<S extends object>(source: S, fields: ReadonlyArray<keyof S>): Partial<S> {
  return Object.fromEntries(fields.filter((f) => source[f] != null).map((f) => [f, source[f]])) as Partial<S>;
}

/*
 * The casts in the three builders below are about value domains only (a voice id, a model or a language name,
 * which Vapi checks against its current catalogue); the property names and the provider are checked by the
 * tables above, and the whole body by the fixture test (test/voice/vapi-sdk-conformance.ts).
 */
function vapiVoice(voice: VoiceConfig): VapiVoice {
  if (!isKnown(VOICE_FIELDS, voice.provider)) return unsupported('voice', voice.provider);
  const fields: ReadonlyArray<keyof VoiceConfig> = VOICE_FIELDS[voice.provider];
  return { provider: voice.provider, voiceId: voice.voiceId, ...pick(voice, fields) } as VapiVoice;
}

/** AssemblyAI takes at most 100 keyterms of at most 50 characters each (Vapi's `keytermsPrompt`). */
const ASSEMBLY_KEYTERMS = { count: 100, length: 50 } as const;

/**
 * The transcriber, with the case's keyterms where the provider takes them (docs/providers.md): Deepgram's
 * `keyterm`, AssemblyAI's `keytermsPrompt` (its bounds applied); other providers have no such field.
 */
function vapiTranscriber(transcriber: TranscriberConfig, keyterms: string[] | null): VapiTranscriber {
  if (!isKnown(TRANSCRIBER_FIELDS, transcriber.provider)) return unsupported('transcriber', transcriber.provider);
  const fields: ReadonlyArray<keyof TranscriberConfig> = TRANSCRIBER_FIELDS[transcriber.provider];
  const base = { provider: transcriber.provider, ...pick(transcriber, fields) };
  if (keyterms && transcriber.provider === 'deepgram') return { ...base, keyterm: keyterms } as VapiTranscriber;
  if (keyterms && transcriber.provider === 'assembly-ai') {
    const fitting = keyterms.filter((k) => k.length <= ASSEMBLY_KEYTERMS.length).slice(0, ASSEMBLY_KEYTERMS.count);
    if (fitting.length) return { ...base, keytermsPrompt: fitting } as VapiTranscriber;
  }
  return base as VapiTranscriber;
}

/** Vapi accepts maxDurationSeconds from 10 s. */
const toMaxDurationSeconds = (ms: number) => Math.max(10, Math.ceil(ms / 1000));

/**
 * The inline assistant of one call (Vapi's CreateAssistantDto): the resolved first message and system prompt (as
 * Liquid that prints them unchanged: escapeLiquid), the voice settings, our call id, and where and how Vapi sends
 * the call's server messages (`server`, vapi-server.ts). Mapping (docs/providers.md): the dial keypad is Vapi's
 * `dtmf` tool, background
 * denoising is `backgroundSpeechDenoisingPlan.smartDenoisingPlan` (Krisp); Vapi's current API has no assistant
 * backchanneling switch, so `backchannelingEnabled` is kept and returned by our API but not sent.
 */
export function vapiAssistant(
  call: Pick<Call, 'id' | 'firstMessage' | 'systemPrompt'> &
    Partial<Pick<Call, 'voicemail' | 'analysisPlan' | 'keyterms' | 'tools' | 'integrationToolIds'>>,
  settings: VoiceSettings,
  maxDurationMs: number,
  server: Vapi.Server,
): Vapi.CreateAssistantDto {
  // The call's tools; function tools are called through our server, which proxies them (docs/tools.md).
  const tools = vapiModelTools(call.tools ?? [], call.integrationToolIds ?? [], server);
  return {
    firstMessage: escapeLiquid(call.firstMessage ?? ''),
    model: vapiModel(settings.model, escapeLiquid(call.systemPrompt ?? ''), settings.dialKeypadFunctionEnabled, tools),
    voice: vapiVoice(settings.voice),
    transcriber: vapiTranscriber(settings.transcriber, call.keyterms ?? null),
    backgroundSpeechDenoisingPlan: { smartDenoisingPlan: { enabled: settings.backgroundDenoisingEnabled } },
    maxDurationSeconds: toMaxDurationSeconds(maxDurationMs),
    // Echoed on the call in every server message: how a message finds our call before its id is known.
    metadata: { callId: call.id },
    server,
    serverMessages: vapiServerMessages(tools.tools.some((tool) => tool.type === 'function')),
    ...(call.voicemail ? vapiVoicemail(call.voicemail) : {}),
    ...(call.analysisPlan ? { analysisPlan: vapiAnalysisPlan(call.analysisPlan) } : {}),
  };
}

/** Vapi's POST /call body for an outbound phone call with a transient assistant. */
export function vapiCreateCallBody(
  call: Pick<Call, 'id' | 'firstMessage' | 'systemPrompt' | 'callTo' | 'variableValues'> &
    Partial<Pick<Call, 'voicemail' | 'analysisPlan' | 'keyterms' | 'tools' | 'integrationToolIds'>>,
  phoneNumberId: string,
  settings: VoiceSettings,
  maxDurationMs: number,
  server: Vapi.Server,
): Vapi.CreateCallDto {
  return {
    phoneNumberId,
    customer: { number: call.callTo },
    assistant: vapiAssistant(call, settings, maxDurationMs, server),
    ...(call.variableValues ? { assistantOverrides: { variableValues: { ...call.variableValues } } } : {}),
  };
}
