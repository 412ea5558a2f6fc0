import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../../common/ids/uuid-v7';
import { InboundAssistantsService } from '../../assistants/inbound-assistants.service';
import { PromptsService } from '../../cases/prompts.service';
import { PhoneNumbersService } from '../../phone-numbers/phone-numbers.service';
import { Call } from '../call.entity';
import { CallsRepository } from '../calls.repository';
import { DEFAULT_SYSTEM_PROMPT } from '../call-resolution';
import { isUniqueViolation } from '../../../infra/database/pg-errors';
import type { VoicePlatform } from '../../../infra/config/platforms';

/** The opening line of inbound calls (inbound assistants carry a prompt only). */
export const INBOUND_FIRST_MESSAGE = 'Hello! Thank you for calling. How can I help you today?';

export interface InboundCallInput {
  /** The number called: one of an organization's numbers. */
  to: string;
  /** The caller. */
  from: string;
  /** The voice platform's id for the call; repeated requests for one platform call record it once. */
  providerCallId: string;
  /** The platform the call arrived on (it answers the call, and is stored on it). */
  platform: VoicePlatform;
}

/**
 * Records a call arriving at an organization's number, answered by the organization's inbound assistant
 * (its first one, by creation; its prompt from the prompt library). docs/contracts/conventions.md: `callFrom` is our number,
 * `callTo` the caller. The call starts in `processing` with no reservation (inbound minutes are settled at
 * the end, covered by a receptionist plan) and never fires call.started.
 */
@Injectable()
export class InboundCallsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly calls: CallsRepository,
    private readonly numbers: PhoneNumbersService,
    private readonly inboundAssistants: InboundAssistantsService,
    private readonly prompts: PromptsService,
  ) {}

  /** The recorded call, or null when the number called belongs to no organization. */
  async start(input: InboundCallInput): Promise<Call | null> {
    const number = await this.numbers.findByNumber(input.to);
    if (!number) return null;
    const existing = await this.calls.findByProviderCallId(input.providerCallId);
    if (existing) return existing;
    const systemPrompt = await this.systemPrompt(number.organizationId);
    try {
      return await this.calls.insert(this.dataSource.manager, {
        id: uuidv7(),
        organizationId: number.organizationId,
        status: 'processing',
        direction: 'inbound',
        callFrom: number.number,
        callTo: input.from,
        firstMessage: INBOUND_FIRST_MESSAGE,
        systemPrompt,
        toolIds: [],
        variableValues: null,
        apiCallId: input.providerCallId,
        apiCallStatus: 'ringing',
        platform: input.platform,
        providerNumberId: number.providerId,
        dispatchedAt: new Date(),
      });
    } catch (error) {
      // A concurrent repeat of the same platform request inserted it first (unique apiCallId).
      const first = isUniqueViolation(error) ? await this.calls.findByProviderCallId(input.providerCallId) : null;
      if (first) return first;
      throw error;
    }
  }

  /**
   * What an inbound call to `to` is answered with, before any call is recorded (Retell asks before the call
   * exists and gives no call id yet; the call is recorded when it starts): null when the number is nobody's.
   */
  async answerScript(
    to: string,
  ): Promise<{ organizationId: string; systemPrompt: string; firstMessage: string } | null> {
    const number = await this.numbers.findByNumber(to);
    if (!number) return null;
    const systemPrompt = await this.systemPrompt(number.organizationId);
    return { organizationId: number.organizationId, systemPrompt, firstMessage: INBOUND_FIRST_MESSAGE };
  }

  private async systemPrompt(organizationId: string): Promise<string> {
    const assistants = await this.inboundAssistants.list(organizationId);
    const first = assistants[assistants.length - 1];
    if (!first) return DEFAULT_SYSTEM_PROMPT;
    return (await this.prompts.find(organizationId, first.systemPromptId))?.content ?? DEFAULT_SYSTEM_PROMPT;
  }
}
