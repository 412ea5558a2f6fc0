import { Body, Controller, Headers, HttpCode, Inject, Logger, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ProviderCallback } from '../../../../common/auth/access.decorators';
import { ApiError } from '../../../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { CallEventsService } from '../../call-events.service';
import { InboundCallsService } from '../../inbound/inbound-calls.service';
import type { Vapi } from '@vapi-ai/server-sdk';
import { DEFAULT_VOICE_SETTINGS, vapiAssistant } from './vapi-assistant';
import { callIdOf, isCallMessage, toPlatformEvents } from './vapi-messages';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Vapi's server messages (CONTRACTS §5), authenticated by `X-Vapi-Secret`. Call events are applied before
 * answering (so a failure is a 5xx the platform may retry) through CallEventsService, which tolerates
 * repeats and any order; `assistant-request` answers an inbound call with the organization's assistant.
 * Excluded from our OpenAPI documents: the bodies are Vapi's contract (docs/providers.md), not ours.
 */
@ApiExcludeController()
@Controller('platform/vapi')
export class VapiEventsController {
  private readonly logger = new Logger(VapiEventsController.name);

  constructor(
    private readonly events: CallEventsService,
    private readonly inbound: InboundCallsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('events')
  @HttpCode(200)
  @ProviderCallback()
  async receive(
    @Headers('x-vapi-secret') secret: string | undefined,
    @Body() body: Partial<Vapi.ServerMessage> | undefined,
  ): Promise<Vapi.ServerMessageResponseAssistantRequest | { received: true }> {
    this.authenticate(secret);
    const message = body?.message;
    if (!message || typeof message !== 'object' || typeof message.type !== 'string') {
      throw ApiError.validation('message', 'message.type is required');
    }
    if (message.type === 'assistant-request') return this.answerInbound(message);
    if (!isCallMessage(message)) return { received: true };

    const providerCallId = typeof message.call?.id === 'string' ? message.call.id : null;
    const callId = await this.events.findCallId(providerCallId, callIdOf(message));
    if (!callId || !providerCallId) {
      this.logger.debug({ type: message.type, providerCallId }, 'Server message for no known call');
      return { received: true };
    }
    for (const event of toPlatformEvents(message, callId)) await this.events.apply(event);
    return { received: true };
  }

  /** Constant time over equal-length digests, so neither content nor length of the secret leaks. */
  private authenticate(secret: string | undefined): void {
    const expected = this.config.vapi.webhookSecret;
    if (!expected || !secret || !timingSafeEqual(digest(secret), digest(expected))) {
      throw new ApiError('UNAUTHORIZED', 'Missing or invalid X-Vapi-Secret');
    }
  }

  private async answerInbound(
    message: Vapi.ServerMessageAssistantRequest,
  ): Promise<Vapi.ServerMessageResponseAssistantRequest> {
    const to = message.phoneNumber && 'number' in message.phoneNumber ? message.phoneNumber.number : undefined;
    const from = message.customer?.number ?? message.call?.customer?.number;
    const providerCallId = message.call?.id;
    if (!to || !from || !providerCallId) return { error: 'The call has no number, caller or id' };
    const call = await this.inbound.start({ to, from, providerCallId });
    if (!call) return { error: 'This number is not in service' };
    return { assistant: vapiAssistant(call, DEFAULT_VOICE_SETTINGS, this.config.callSupervision.maxDurationMs) };
  }
}
