import { createHash } from 'node:crypto';
import type { Retell } from 'retell-sdk';
import type { AnalysisPlan } from '../../../call-outcomes/analysis-plan';
import type { VoicemailPolicy } from '../../../call-outcomes/voicemail-policy';
import type { VoiceSettings } from '../../../assistants/voice-settings';
import { CallTool, DEFAULT_TRANSFER_MESSAGE } from '../../../tools/call-tools';
import { RETELL_CALL_EVENTS } from './retell-calls';

type LlmTool = NonNullable<Retell.LlmCreateParams['general_tools']>[number];
type RetellModel = NonNullable<Retell.LlmCreateParams['model']>;
type AnalysisData = NonNullable<Retell.AgentCreateParams['post_call_analysis_data']>[number];

/**
 * The dynamic variables every call fills per call (docs/providers.md, "Retell"): the call's script is copied and
 * rendered when the call is made, so the LLM and agent stay the same across the calls of one case and assistant
 * while each call says its own words.
 */
export const SCRIPT_VARIABLES = {
  systemPrompt: 'vc_system_prompt',
  firstMessage: 'vc_first_message',
  voicemailMessage: 'vc_voicemail_message',
} as const;

/** Every LLM Retell hosts: a table over the SDK's union, so tsc keeps it true to the SDK. */
const MODELS: Record<RetellModel, true> = {
  'gpt-4.1': true,
  'gpt-4.1-mini': true,
  'gpt-4.1-nano': true,
  'gpt-5': true,
  'gpt-5-mini': true,
  'gpt-5-nano': true,
  'gpt-5.1': true,
  'gpt-5.2': true,
  'gpt-5.4': true,
  'gpt-5.4-mini': true,
  'gpt-5.4-nano': true,
  'gpt-5.5': true,
  'gpt-5.6-terra': true,
  'gpt-5.6-luna': true,
  'claude-4.5-sonnet': true,
  'claude-4.6-sonnet': true,
  'claude-5-sonnet': true,
  'claude-4.5-haiku': true,
  'gemini-3.0-flash': true,
  'gemini-3.1-flash-lite': true,
  'gemini-3.5-flash': true,
  'gemini-3.5-flash-lite': true,
  'gemini-3.6-flash': true,
};

/** Voice providers whose voices Retell hosts, and the prefix of Retell's voice ids for them. */
const VOICE_PREFIXES: Record<string, string> = {
  '11labs': '11labs',
  openai: 'openai',
  cartesia: 'cartesia',
  minimax: 'minimax',
};
/** A voice Retell does not host (e.g. Vapi's own, the default settings' voice) is replaced by this one. */
export const DEFAULT_RETELL_VOICE = '11labs-Adrian';

/** Retell tool names: letters, digits, underscores and dashes, at most 64 characters. */
const toolName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);

/** What a call's LLM and agent are built from: the parts of the call that are the same across its case's calls. */
export interface RetellAgentSource {
  settings: VoiceSettings;
  tools: readonly CallTool[];
  voicemail: VoicemailPolicy | null;
  analysisPlan: AnalysisPlan | null;
  maxDurationMs: number;
  /** `<PUBLIC_BASE_URL>/platform/retell`: where events and tool calls go. */
  baseUrl: string;
}

export interface RetellAgentSpec {
  llm: Retell.LlmCreateParams;
  /** The agent without its `response_engine`, which names the LLM once it exists. */
  agent: Omit<Retell.AgentCreateParams, 'response_engine'>;
  /** sha256 of both bodies: an LLM and agent built from a different hash are updated. */
  hash: string;
}

function retellVoice(settings: VoiceSettings): string {
  const { provider, voiceId } = settings.voice;
  if (provider === 'retell') return voiceId;
  const prefix = VOICE_PREFIXES[provider];
  return prefix ? `${prefix}-${voiceId}` : DEFAULT_RETELL_VOICE;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function customTool(tool: CallTool, url: string): LlmTool {
  const schema = isObject(tool.parameters) ? tool.parameters : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  return {
    type: 'custom',
    name: toolName(tool.name ?? tool.id),
    url,
    ...(tool.description ? { description: tool.description } : {}),
    parameters: {
      type: 'object',
      properties: isObject(schema.properties) ? schema.properties : {},
      ...(required.length ? { required: required as string[] } : {}),
    },
    speak_during_execution: Boolean(tool.messages?.start),
    ...(tool.messages?.start
      ? { execution_message_description: tool.messages.start, execution_message_type: 'static_text' as const }
      : {}),
    // Retell waits for our answer while we wait for the customer's: the tool's timeout and some slack.
    timeout_ms: ((tool.timeoutSeconds ?? 10) + 5) * 1000,
  };
}

/** One Retell transfer tool per destination (Retell's transfer names one number). */
function transferTools(tool: CallTool): LlmTool[] {
  const destinations = tool.destinations ?? [];
  return destinations.map((d, i) => ({
    type: 'transfer_call',
    name: toolName(destinations.length > 1 ? `${tool.name ?? 'transfer'}_${i + 1}` : (tool.name ?? 'transfer')),
    ...(d.description ? { description: d.description } : {}),
    transfer_destination: { type: 'predefined', number: d.number },
    transfer_option:
      d.mode === 'warm'
        ? {
            type: 'warm_transfer',
            public_handoff_option: { type: 'static_message', message: d.message ?? DEFAULT_TRANSFER_MESSAGE },
          }
        : { type: 'cold_transfer' },
    ...(d.message && d.mode !== 'warm'
      ? {
          speak_during_execution: true,
          execution_message_description: d.message,
          execution_message_type: 'static_text',
        }
      : {}),
  }));
}

/**
 * The call's tools as Retell's `general_tools` (docs/providers.md, "Retell"): function tools are custom functions
 * calling our `/platform/retell/tools` (we proxy them to the customer's url), transfers `transfer_call`, end-call
 * `end_call`. Retell has no ids of tools kept on the platform: platform tools are left out.
 */
export function retellTools(tools: readonly CallTool[], baseUrl: string): LlmTool[] {
  return tools.flatMap((tool): LlmTool[] => {
    if (tool.type === 'function') return [customTool(tool, `${baseUrl}/tools`)];
    if (tool.type === 'transfer') return transferTools(tool);
    if (tool.type === 'end-call') return [{ type: 'end_call', name: toolName(tool.name ?? 'end_call') }];
    return [];
  });
}

/** The voicemail policy as Retell's `voicemail_option`: off is none; the message is filled per call. */
export function retellVoicemail(policy: VoicemailPolicy | null): Retell.AgentCreateParams['voicemail_option'] {
  if (!policy?.detect) return null;
  if (policy.action === 'leave-message' && policy.message !== null) {
    return { action: { type: 'static_text', text: `{{${SCRIPT_VARIABLES.voicemailMessage}}}` } };
  }
  return { action: { type: 'hangup' } };
}

const ANALYSIS_TYPES = new Set(['string', 'number', 'boolean']);

/**
 * The analysis plan as Retell's `post_call_analysis_data`: Retell's summary and success presets, and one item per
 * property of the structured data schema (string, number, boolean, or enum of strings; other types as strings).
 */
export function retellAnalysisData(plan: AnalysisPlan | null): AnalysisData[] | null {
  if (!plan) return null;
  const items: AnalysisData[] = [];
  if (plan.summary) items.push({ type: 'system-presets', name: 'call_summary' });
  if (plan.successCriteria) {
    items.push({ type: 'system-presets', name: 'call_successful', description: plan.successCriteria });
  }
  const schema: Record<string, unknown> = isObject(plan.structuredDataSchema) ? plan.structuredDataSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, raw] of Object.entries(properties)) {
    const property = isObject(raw) ? raw : {};
    const description = typeof property.description === 'string' ? property.description : name;
    const type = typeof property.type === 'string' ? property.type : 'string';
    if (Array.isArray(property.enum) && property.enum.length && property.enum.every((e) => typeof e === 'string')) {
      items.push({ type: 'enum', name, description, choices: property.enum as string[] });
    } else if (type === 'integer' || ANALYSIS_TYPES.has(type)) {
      items.push({
        type: type === 'integer' ? 'number' : (type as 'string' | 'number' | 'boolean'),
        name,
        description,
      });
    } else {
      items.push({ type: 'string', name, description });
    }
  }
  return items;
}

/** The LLM and agent a call is placed with, and their hash. */
export function retellAgentSpec(source: RetellAgentSource): RetellAgentSpec {
  const { settings } = source;
  const model = settings.model.model as RetellModel;
  const tools = retellTools(source.tools, source.baseUrl);
  const llm: Retell.LlmCreateParams = {
    general_prompt: `{{${SCRIPT_VARIABLES.systemPrompt}}}`,
    begin_message: `{{${SCRIPT_VARIABLES.firstMessage}}}`,
    start_speaker: 'agent',
    // A model Retell does not host is left to Retell's default.
    ...(Object.hasOwn(MODELS, model) ? { model } : {}),
    model_temperature: settings.model.temperature,
    general_tools: tools,
  };
  const analysis = retellAnalysisData(source.analysisPlan);
  const agent: Omit<Retell.AgentCreateParams, 'response_engine'> = {
    voice_id: retellVoice(settings),
    webhook_url: `${source.baseUrl}/events`,
    webhook_events: [...RETELL_CALL_EVENTS],
    enable_backchannel: settings.backchannelingEnabled,
    denoising_mode: settings.backgroundDenoisingEnabled ? 'noise-cancellation' : 'no-denoise',
    allow_user_dtmf: settings.dialKeypadFunctionEnabled,
    // Retell accepts 1 minute to 2 hours.
    max_call_duration_ms: Math.min(Math.max(source.maxDurationMs, 60_000), 7_200_000),
    voicemail_option: retellVoicemail(source.voicemail),
    ...(analysis ? { post_call_analysis_data: analysis } : {}),
  };
  const hash = createHash('sha256').update(JSON.stringify({ llm, agent })).digest('hex');
  return { llm, agent, hash };
}
