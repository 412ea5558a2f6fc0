import { Injectable } from '@nestjs/common';
import type { ModelConfig } from '../../assistants/outbound-assistant.entity';
import { OutboundAssistantsService } from '../../assistants/outbound-assistants.service';
import { DEFAULT_VOICE_SETTINGS } from '../../assistants/voice-settings';
import { resolveCall } from '../../calls/call-resolution';
import { CasesService } from '../../cases/cases.service';
import { PromptsService } from '../../cases/prompts.service';
import { ChatScript, ChatScripts, ChatTurn } from './chat-platform';

/**
 * The chat agent's scripts from the cases and assistants calls use: the case's prompt (from the prompt library
 * when it names one) resolved as a call's would be (docs/contracts/bounds.md), and the assistant's model, else the
 * organization's default assistant's, else the defaults.
 */
@Injectable()
export class ChatAgentScripts extends ChatScripts {
  constructor(
    private readonly cases: CasesService,
    private readonly prompts: PromptsService,
    private readonly assistants: OutboundAssistantsService,
  ) {
    super();
  }

  async scriptFor(turn: ChatTurn): Promise<ChatScript> {
    const assistant = await this.assistantOf(turn.organizationId, turn.assistantConfigId);
    const kase = turn.caseId ? await this.cases.get(turn.organizationId, turn.caseId) : null;
    const library = kase?.systemPromptId ? await this.prompts.find(turn.organizationId, kase.systemPromptId) : null;
    // The same resolution as a call's: required variables and rendered bounds apply (a failure throws).
    const { systemPrompt } = resolveCall({
      request: {},
      contact: turn.contact,
      case: kase && { ...kase, prompt: library?.content ?? kase.prompt },
      assistant,
    });
    return { systemPrompt, model: assistant?.model ?? DEFAULT_VOICE_SETTINGS.model };
  }

  async modelFor(organizationId: string, assistantConfigId: string | null): Promise<ModelConfig> {
    return (await this.assistantOf(organizationId, assistantConfigId))?.model ?? DEFAULT_VOICE_SETTINGS.model;
  }

  /** The named assistant, else the organization's default one, else none (the defaults). */
  private async assistantOf(organizationId: string, id: string | null) {
    if (id) return this.assistants.get(organizationId, id).catch(() => this.assistants.getDefault(organizationId));
    return this.assistants.getDefault(organizationId);
  }
}
