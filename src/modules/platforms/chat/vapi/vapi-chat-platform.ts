import { Injectable } from '@nestjs/common';
import type { Vapi } from '@vapi-ai/server-sdk';
import { VapiClient } from '../../vapi/vapi-client';
import { vapiChatAssistant } from '../../vapi/vapi-model';
import { vapiChatTools } from '../../vapi/vapi-tools';
import {
  ChatAnswer,
  ChatPlatform,
  ChatScripts,
  ChatTurn,
  ScriptedAnswer,
  ScriptedTurn,
  SummaryInput,
} from '../../../messaging/chat-agent/chat-platform';

/** What the summary turn is asked to do; its answer is cut to AI_SUMMARY_MAX_LENGTH by the caller. */
const SUMMARY_PROMPT =
  'Summarize this customer conversation for the person taking it over: who the customer is, what they want, ' +
  'and what is still open. At most three sentences, plain text.';
/** The transcript a summary turn sends is cut to this many characters (its latest part kept). */
export const SUMMARY_TRANSCRIPT_MAX_LENGTH = 20_000;

/**
 * The chat agent on Vapi's chat API (POST /chat, docs/providers.md): the script and model messaging resolves
 * (ChatScripts: the case's prompt resolved as a call's would be, the assistant's model), and the conversation's
 * context carried by `previousChatId`.
 */
@Injectable()
export class VapiChatPlatform extends ChatPlatform {
  constructor(
    private readonly vapi: VapiClient,
    private readonly scripts: ChatScripts,
  ) {
    super();
  }

  async reply(turn: ChatTurn): Promise<ChatAnswer> {
    const { systemPrompt, model } = await this.scripts.scriptFor(turn);
    const body: Vapi.CreateChatDto = {
      assistant: vapiChatAssistant(model, systemPrompt),
      input: turn.text,
      ...(turn.previousChatId ? { previousChatId: turn.previousChatId } : {}),
    };
    const chat = await this.vapi.createChat(body);
    return { text: lastAssistantText(chat), chatId: chat.id };
  }

  /**
   * A scripted turn (a scenario run): the caller's resolved prompt, the function tools without a server (Vapi
   * reports their calls, nothing reaches the customer's endpoint), the organization's default assistant's model.
   */
  async converse(turn: ScriptedTurn): Promise<ScriptedAnswer> {
    const model = await this.scripts.modelFor(turn.organizationId, null);
    const chat = await this.vapi.createChat({
      assistant: vapiChatAssistant(model, turn.systemPrompt, vapiChatTools(turn.tools)),
      input: turn.text,
      ...(turn.previousChatId ? { previousChatId: turn.previousChatId } : {}),
    });
    const said = assistantMessages(chat);
    const toolCalls = said
      .flatMap((m) => m.tool_calls ?? [])
      .map((call) => ({
        name: call.function.name,
        arguments: parsedArguments(call.function.arguments),
      }));
    const text = said.map((m) => m.content?.trim() ?? '').filter(Boolean);
    if (!text.length && !toolCalls.length) throw new Error(`Vapi chat ${chat.id} answered nothing`);
    return { text: text.join('\n'), chatId: chat.id, toolCalls, usage: usageOf(chat) };
  }

  async summarize(input: SummaryInput): Promise<string> {
    const model = await this.scripts.modelFor(input.organizationId, input.assistantConfigId);
    const transcript = input.transcript.map((m) => `${m.role}: ${m.text}`).join('\n');
    const chat = await this.vapi.createChat({
      assistant: vapiChatAssistant(model, SUMMARY_PROMPT),
      input: transcript.slice(-SUMMARY_TRANSCRIPT_MAX_LENGTH),
    });
    return lastAssistantText(chat);
  }
}

const assistantMessages = (chat: Vapi.Chat) =>
  (chat.output ?? []).filter((m): m is Vapi.AssistantMessage => m.role === 'assistant');

/** A tool call's arguments: Vapi sends them as a JSON string; anything but an object reads as none. */
function parsedArguments(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The chat's tokens (its model costs' prompt and completion tokens) and cost; null when Vapi reports no cost. */
function usageOf(chat: Vapi.Chat): ScriptedAnswer['usage'] {
  if (chat.cost === undefined) return null;
  const tokens = (chat.costs ?? []).reduce(
    (sum, c) => sum + (c.type === 'model' ? c.promptTokens + c.completionTokens : 0),
    0,
  );
  return { tokens, costUsd: chat.cost };
}

/** The assistant's last words in a chat's output; a chat without any is a platform failure. */
function lastAssistantText(chat: Vapi.Chat): string {
  const said = assistantMessages(chat)
    .map((m) => m.content?.trim() ?? '')
    .filter(Boolean);
  if (!said.length) throw new Error(`Vapi chat ${chat.id} answered no assistant text`);
  return said[said.length - 1];
}
