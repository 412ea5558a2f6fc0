import type { Vapi } from '@vapi-ai/server-sdk';
import type { ModelConfig } from '../../assistants/outbound-assistant.entity';
import { escapeLiquid } from './vapi-liquid';

type VapiModel = Vapi.CreateAssistantDtoModel;

/** One of our settings names a provider Vapi does not have; a call with it cannot be placed. */
export class VapiUnsupportedSetting extends Error {}

/** Every Vapi model provider; each takes `model`, `temperature`, `messages`, `tools`, `toolIds` (EveryVariantHas below). */
const MODEL_PROVIDERS: Record<VapiModel['provider'], true> = {
  anthropic: true,
  'anthropic-bedrock': true,
  anyscale: true,
  cerebras: true,
  'custom-llm': true,
  deepinfra: true,
  'deep-seek': true,
  google: true,
  groq: true,
  'inflection-ai': true,
  minimax: true,
  openai: true,
  openrouter: true,
  'perplexity-ai': true,
  'together-ai': true,
  xai: true,
  vapi: true,
};

/** true only when every member of the union U declares field K: a compile-time proof for the casts below. */
type EveryVariantHas<U, K extends PropertyKey> = [U extends unknown ? (K extends keyof U ? never : U) : never] extends [
  never,
]
  ? true
  : false;
const modelFieldsHold: EveryVariantHas<VapiModel, 'model' | 'temperature' | 'messages' | 'tools' | 'toolIds'> = true;
void modelFieldsHold;

export const isKnown = <T extends object>(table: T, provider: string): provider is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(table, provider);

export function unsupported(kind: string, provider: string): never {
  throw new VapiUnsupportedSetting(`vapi-unsupported-${kind}-provider: ${provider}`);
}

/**
 * Our model settings as Vapi's `model` (the same for a call's assistant and the chat agent's): the system prompt as
 * its one message, the dial keypad as Vapi's `dtmf` tool, the call's function tools and Vapi tool ids.
 */
export function vapiModel(
  model: ModelConfig,
  systemPrompt: string,
  dtmf: boolean,
  callTools: { tools: Vapi.OpenAiModelToolsItem[]; toolIds: string[] } = { tools: [], toolIds: [] },
): VapiModel {
  if (!isKnown(MODEL_PROVIDERS, model.provider)) return unsupported('model', model.provider);
  const tools: Vapi.OpenAiModelToolsItem[] = [...(dtmf ? [{ type: 'dtmf' as const }] : []), ...callTools.tools];
  return {
    provider: model.provider,
    model: model.model,
    temperature: model.temperature,
    messages: [{ role: 'system', content: systemPrompt }],
    ...(tools.length ? { tools } : {}),
    ...(callTools.toolIds.length ? { toolIds: callTools.toolIds } : {}),
  } as VapiModel;
}

/**
 * The transient assistant of a text chat (POST /chat): only the model and its system prompt matter over text. The
 * prompt is escaped as a call's is: it holds what end users wrote (a profile name, a contact's fields).
 */
export function vapiChatAssistant(
  model: ModelConfig,
  systemPrompt: string,
  tools: Vapi.OpenAiModelToolsItem[] = [],
): Vapi.CreateAssistantDto {
  return { model: vapiModel(model, escapeLiquid(systemPrompt), false, { tools, toolIds: [] }) };
}
