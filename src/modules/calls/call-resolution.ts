import type { CaseVariable } from '../cases/case.entity';
import { renderWithin } from '../../common/text/render-within';
import type { AnalysisPlan } from '../call-outcomes/analysis-plan';
import type { CallTool } from '../tools/call-tools';
import { VOICEMAIL_MESSAGE_MAX, VoicemailPolicy, effectiveVoicemailPolicy } from '../call-outcomes/voicemail-policy';

/** docs/contracts/bounds.md: what a call may inject once its `{{variables}}` are filled in. */
export const RENDERED_LIMITS = {
  firstMessage: 1000,
  systemPrompt: 50_000,
  'voicemail.message': VOICEMAIL_MESSAGE_MAX,
} as const;

/** Used when neither the request, the case nor the assistant supplies an opening line (docs/contracts/conventions.md, "What a call injects"). */
export const DEFAULT_FIRST_MESSAGE = 'Hello! This is an automated assistant calling. Do you have a moment to talk?';
/** Used when neither the case nor the assistant supplies a system prompt (docs/contracts/conventions.md, "What a call injects"). */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a friendly, concise phone assistant. Introduce yourself, keep answers short, and end the call politely.';

/** What call creation resolves from; every reference has already been loaded for the caller's organization. */
export interface ResolutionInput {
  request: { firstMessage?: string; variableValues?: Record<string, string> };
  contact?: { title: string; email: string | null; phone: string; notes: string | null } | null;
  /** `prompt` is the case's effective prompt (its prompt-library entry when linked). */
  case?: {
    firstMessage: string | null;
    prompt: string;
    toolIds: string[];
    /** The case's tools, loaded in `toolIds` order. */
    tools?: CallTool[];
    integrationToolIds?: string[];
    variables: CaseVariable[];
    voicemail?: VoicemailPolicy | null;
    analysis?: AnalysisPlan | null;
    keyterms?: string | null;
  } | null;
  assistant?: { firstMessage: string | null; systemPrompt: string | null; voicemail?: VoicemailPolicy | null } | null;
  /** The voicemail policy of the campaign placing the call, when it sets one (the most specific). */
  campaignVoicemail?: VoicemailPolicy | null;
}

export interface ResolvedCall {
  firstMessage: string;
  systemPrompt: string;
  toolIds: string[];
  /** The case's tools, copied onto the call (a later change to them does not change it). */
  tools: CallTool[];
  integrationToolIds: string[];
  /** Every variable that resolved to a value (what was injected); null when none did. */
  variableValues: Record<string, string> | null;
  /** The policy that applies (campaign, case, assistant, default), its message rendered. */
  voicemail: VoicemailPolicy;
  analysisPlan: AnalysisPlan | null;
  /** The case's keyterms, one per non-empty line; null when it has none. */
  keyterms: string[] | null;
}

export class MissingRequiredVariableError extends Error {
  constructor(readonly variable: string) {
    super(`required case variable "${variable}" has no value (variableValues, contact or default)`);
  }
}

export class RenderedTooLongError extends Error {
  constructor(readonly field: keyof typeof RENDERED_LIMITS) {
    super(`exceeds ${RENDERED_LIMITS[field]} characters once its {{variables}} are filled in`);
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Built-in contact variables (docs/contracts/conventions.md, "What a call injects"): the placeholder name and the contact field it reads. */
const CONTACT_VARIABLES = { name: 'title', email: 'email', phone: 'phone', notes: 'notes' } as const;

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/**
 * Replaces every `{{name}}` with its value; a placeholder nothing resolves becomes empty text (docs/contracts/conventions.md).
 * Stops with RenderedTooLongError as soon as the result passes the field's bound.
 */
export function render(field: keyof typeof RENDERED_LIMITS, template: string, values: Record<string, string>): string {
  const rendered = renderWithin(
    template,
    PLACEHOLDER,
    (name) => (Object.hasOwn(values, name) ? values[name] : ''),
    RENDERED_LIMITS[field],
  );
  if (rendered === null) throw new RenderedTooLongError(field);
  return rendered;
}

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** A contact field by name, or undefined when there is no contact or the field is empty. */
function contactField(contact: ResolutionInput['contact'], field: 'title' | 'email' | 'phone' | 'notes') {
  const value = contact?.[field];
  return present(value) ? value : undefined;
}

/**
 * The value of one variable, by the priority the contract gives: the request's variableValues, then contact data (a case
 * variable's own `contact.*` source first, then the built-in names), then the case variable's default.
 */
function resolveVariable(name: string, input: ResolutionInput, definition?: CaseVariable): string | undefined {
  const given = input.request.variableValues?.[name];
  if (typeof given === 'string') return given;
  if (definition?.source.startsWith('contact.')) {
    const fromSource = contactField(input.contact, definition.source.slice('contact.'.length) as 'title');
    if (fromSource !== undefined) return fromSource;
  }
  if (Object.hasOwn(CONTACT_VARIABLES, name)) {
    const fromContact = contactField(input.contact, CONTACT_VARIABLES[name as keyof typeof CONTACT_VARIABLES]);
    if (fromContact !== undefined) return fromContact;
  }
  return present(definition?.defaultValue) ? definition.defaultValue : undefined;
}

/**
 * The case's required variables that nothing resolves for these values and this contact, in the case's order
 * (docs/contracts/conventions.md, "What a call injects"): what a call with them would be refused for, so a campaign
 * can refuse its rows before storing them.
 */
export function missingRequiredVariables(
  variables: readonly CaseVariable[],
  request: ResolutionInput['request'],
  contact: ResolutionInput['contact'],
): string[] {
  return variables
    .filter((v) => v.required && resolveVariable(v.name, { request, contact }, v) === undefined)
    .map((v) => v.name);
}

function keytermsOf(text: string | null | undefined): string[] | null {
  const terms = (text ?? '')
    .split('\n')
    .map((t) => t.trim())
    .filter(Boolean);
  return terms.length ? terms : null;
}

/**
 * Resolves what a call injects (docs/contracts/conventions.md, "What a call injects"): first message and system prompt by
 * request, case, assistant, generic default; tools from the case only; variables by priority; placeholders
 * rendered in both texts. Pure: the caller loads the references and turns the error into a 400.
 */
export function resolveCall(input: ResolutionInput): ResolvedCall {
  // A case's firstMessage defaults to empty text, and empty means the case supplies none (docs/contracts/conventions.md,
  // "What a call injects").
  const caseFirstMessage = present(input.case?.firstMessage) ? input.case.firstMessage : undefined;
  const firstMessageTemplate =
    input.request.firstMessage ?? caseFirstMessage ?? input.assistant?.firstMessage ?? DEFAULT_FIRST_MESSAGE;
  const promptTemplate = input.case?.prompt ?? input.assistant?.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;

  const definitions = new Map((input.case?.variables ?? []).map((v) => [v.name, v]));
  const voicemail = effectiveVoicemailPolicy(
    input.campaignVoicemail,
    input.case?.voicemail,
    input.assistant?.voicemail,
  );
  const names = new Set([
    ...Object.keys(input.request.variableValues ?? {}),
    ...definitions.keys(),
    ...placeholdersOf(firstMessageTemplate),
    ...placeholdersOf(promptTemplate),
    ...placeholdersOf(voicemail.message ?? ''),
  ]);
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = resolveVariable(name, input, definitions.get(name));
    if (value !== undefined) values[name] = value;
    else if (definitions.get(name)?.required) throw new MissingRequiredVariableError(name);
  }
  return {
    firstMessage: render('firstMessage', firstMessageTemplate, values),
    systemPrompt: render('systemPrompt', promptTemplate, values),
    toolIds: [...(input.case?.toolIds ?? [])],
    tools: [...(input.case?.tools ?? [])],
    integrationToolIds: [...(input.case?.integrationToolIds ?? [])],
    variableValues: Object.keys(values).length ? values : null,
    voicemail: {
      ...voicemail,
      message: voicemail.message === null ? null : render('voicemail.message', voicemail.message, values),
    },
    analysisPlan: input.case?.analysis ?? null,
    keyterms: keytermsOf(input.case?.keyterms),
  };
}
