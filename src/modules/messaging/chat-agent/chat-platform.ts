import { Contact } from '../../contacts/contact.entity';
import type { ModelConfig } from '../../assistants/outbound-assistant.entity';
import type { CallTool } from '../../tools/call-tools';

/** What the agent knows when it answers one user message. */
export interface ChatTurn {
  organizationId: string;
  /** The user's text. */
  text: string;
  contact: Pick<Contact, 'title' | 'phone' | 'email' | 'notes'> | null;
  caseId: string | null;
  assistantConfigId: string | null;
  /** The platform's id of the conversation's previous turn, which carries its context. */
  previousChatId: string | null;
}

export interface ChatAnswer {
  text: string;
  /** The platform's id of this turn (null when the platform keeps no context). */
  chatId: string | null;
}

export interface SummaryInput {
  organizationId: string;
  messageCount: number;
  /** The user's latest text, and the conversation's messages oldest first (bounded). */
  lastUserText: string;
  transcript: Array<{ role: 'user' | 'assistant'; text: string }>;
  assistantConfigId: string | null;
}

/**
 * One turn of a scripted text conversation (a scenario run, docs/testing-your-assistant.md): the caller resolved
 * the script (a case version's prompt with the scenario's variables) and the tools the assistant may call; the
 * tool calls are recorded, never executed.
 */
export interface ScriptedTurn {
  organizationId: string;
  systemPrompt: string;
  tools: CallTool[];
  /** Who the user is (the `name` variable), for the simulator's answer. */
  userName: string | null;
  text: string;
  previousChatId: string | null;
}

export interface ScriptedAnswer extends ChatAnswer {
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** What the turn cost on the platform; null when it reports nothing (the simulator). */
  usage: { tokens: number; costUsd: number } | null;
}

/**
 * Where the chat agent's words come from: the voice platform's chat API, or the simulator. A platform error or
 * timeout throws; the caller retries and finally hands the conversation to a person.
 */
export abstract class ChatPlatform {
  abstract reply(turn: ChatTurn): Promise<ChatAnswer>;
  abstract summarize(input: SummaryInput): Promise<string>;
  abstract converse(turn: ScriptedTurn): Promise<ScriptedAnswer>;
}

/** What a platform that sends the agent's script needs of a turn: the resolved prompt and the model. */
export interface ChatScript {
  systemPrompt: string;
  model: ModelConfig;
}

/**
 * The scripts and models the chat agent answers with, resolved by messaging from the cases and assistants calls
 * use. A platform that sends them (Vapi's chat API) asks through this port, so no platform imports a cases or
 * assistants service; the simulator never asks, so a case it cannot resolve fails only a platform that needs it.
 */
export abstract class ChatScripts {
  /** The turn's case prompt resolved as a call's (contact variables, bounds; a failure throws) and its model. */
  abstract scriptFor(turn: ChatTurn): Promise<ChatScript>;
  /** The named assistant's model, else the organization's default assistant's, else the defaults. */
  abstract modelFor(organizationId: string, assistantConfigId: string | null): Promise<ModelConfig>;
}
