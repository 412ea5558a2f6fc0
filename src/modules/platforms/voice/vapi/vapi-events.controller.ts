import { Controller, HttpCode, Inject, Logger, Post, RawBodyRequest, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ProviderCallback } from '../../../../common/auth/access.decorators';
import { ApiError } from '../../../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { VoiceIngress } from '../../../calls/voice/voice-ingress';
import type { Vapi } from '@vapi-ai/server-sdk';
import { DEFAULT_VOICE_SETTINGS } from '../../../assistants/voice-settings';
import { vapiAssistant } from './vapi-assistant';
import { callIdOf, isCallMessage, toPlatformEvents } from './vapi-messages';
import { VapiMessageAuthenticator } from './vapi-message-authenticator';
import { vapiServer } from './vapi-server';
import { invocationsOf, vapiToolResults } from '../../vapi/vapi-tools';
import { withDeadline } from '../../../../common/concurrency/deadline';

/**
 * How long an `assistant-request` may take us: Vapi gives up at a fixed 7.5 s, and the answer still has to travel
 * back (docs/providers.md, "Inbound calls").
 */
export const ASSISTANT_REQUEST_DEADLINE_MS = 6000;

/**
 * Vapi's server messages (docs/providers.md), authenticated by one of Vapi's credential schemes before the body
 * is acted on (VapiMessageAuthenticator). Call messages are translated into events applied before answering (so a
 * failure is a 5xx that the call's backoff plan redelivers) through the calls domain's VoiceIngress, which
 * tolerates repeats and any order; an `ended` status reports the end-of-call report as expected (past the grace,
 * Vapi is asked for the call); `assistant-request` answers an inbound call with the organization's assistant. Excluded from our OpenAPI documents: the bodies are Vapi's
 * contract (docs/providers.md), not ours.
 */
@ApiExcludeController()
@Controller('platform/vapi')
export class VapiEventsController {
  private readonly logger = new Logger(VapiEventsController.name);

  constructor(
    private readonly ingress: VoiceIngress,
    private readonly authenticator: VapiMessageAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('events')
  @HttpCode(200)
  @ProviderCallback()
  async receive(
    @Req() request: RawBodyRequest<FastifyRequest>,
  ): Promise<Vapi.ServerMessageResponseAssistantRequest | Vapi.ServerMessageResponseToolCalls | { received: true }> {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const scheme = this.authenticator.authenticate(
      {
        authorization: header('authorization'),
        'x-signature': header('x-signature'),
        'x-timestamp': header('x-timestamp'),
        'x-vapi-secret': header('x-vapi-secret'),
      },
      request.rawBody,
    );
    if (!scheme) throw new ApiError('UNAUTHORIZED', 'Missing or invalid Vapi credential');
    const message = (request.body as Partial<Vapi.ServerMessage> | undefined)?.message;
    if (!message || typeof message !== 'object' || typeof message.type !== 'string') {
      throw ApiError.validation('message', 'message.type is required');
    }
    if (message.type === 'assistant-request') return this.answerInboundInTime(message);
    if (message.type === 'tool-calls') return this.answerToolCalls(message);
    if (!isCallMessage(message)) return { received: true };

    const providerCallId = typeof message.call?.id === 'string' ? message.call.id : null;
    const callId = await this.ingress.findCallId(providerCallId, callIdOf(message));
    if (!callId || !providerCallId) {
      this.logger.debug({ type: message.type, providerCallId }, 'Server message for no known call');
      return { received: true };
    }
    for (const event of toPlatformEvents(message, callId)) await this.ingress.apply(event);
    if (message.type === 'status-update' && message.status === 'ended') {
      const graceMs = this.config.vapi.reportGraceMs;
      await this.ingress.apply({ kind: 'report-expected', callId, providerCallId, graceMs });
    }
    return { received: true };
  }

  /**
   * The assistant called function tools: each is proxied to the customer's URL by the calls domain and the
   * answer carries every result, a failure as the tool's failure message. Vapi waits for this answer, so the
   * tools' own timeouts (at most 30 s) bound it.
   */
  private async answerToolCalls(message: Vapi.ServerMessageToolCalls): Promise<Vapi.ServerMessageResponseToolCalls> {
    const invocations = invocationsOf(message);
    const providerCallId = typeof message.call?.id === 'string' ? message.call.id : null;
    const ours = message.call?.assistant?.metadata?.callId ?? message.assistant?.metadata?.callId;
    const callId = await this.ingress.findCallId(providerCallId, typeof ours === 'string' ? ours : null);
    // An unknown call still gets an answer per tool call, each the failure message.
    const replies = await this.ingress.runTools(callId, invocations);
    return vapiToolResults(invocations, replies);
  }

  /**
   * Vapi waits a fixed 7.5 s for the answer to `assistant-request`, then gives the caller up: past
   * ASSISTANT_REQUEST_DEADLINE_MS (leaving room for the way back) the answer is an error Vapi ends the call with,
   * at once, rather than silence. Work still running then is left to finish; a call it records is ended by
   * supervision from Vapi's record of the call (docs/providers.md).
   */
  private answerInboundInTime(
    message: Vapi.ServerMessageAssistantRequest,
  ): Promise<Vapi.ServerMessageResponseAssistantRequest> {
    return withDeadline(
      this.answerInbound(message),
      ASSISTANT_REQUEST_DEADLINE_MS,
      () => {
        this.logger.warn({ providerCallId: message.call?.id }, 'assistant-request not answered in time; refused');
        return { error: 'The service could not answer in time' };
      },
      ({ error }) => {
        if (error) this.logger.warn({ err: (error as Error).message }, 'A late assistant-request failed');
      },
    );
  }

  private async answerInbound(
    message: Vapi.ServerMessageAssistantRequest,
  ): Promise<Vapi.ServerMessageResponseAssistantRequest> {
    const to = message.phoneNumber && 'number' in message.phoneNumber ? message.phoneNumber.number : undefined;
    const from = message.customer?.number ?? message.call?.customer?.number;
    const providerCallId = message.call?.id;
    if (!to || !from || !providerCallId) return { error: 'The call has no number, caller or id' };
    const call = await this.ingress.startInbound({ to, from, providerCallId, platform: 'vapi' });
    if (!call) return { error: 'This number is not in service' };
    const { maxDurationMs } = this.config.callSupervision;
    return { assistant: vapiAssistant(call, DEFAULT_VOICE_SETTINGS, maxDurationMs, vapiServer(this.config)) };
  }
}
