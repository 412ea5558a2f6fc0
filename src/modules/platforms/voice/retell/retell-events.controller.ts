import { Controller, HttpCode, Inject, Logger, Post, RawBodyRequest, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProviderCallback } from '../../../../common/auth/access.decorators';
import { ApiError } from '../../../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { VoiceIngress } from '../../../calls/voice/voice-ingress';
import { DEFAULT_VOICE_SETTINGS } from '../../../assistants/voice-settings';
import type { ToolResult } from '../../../tools/call-tools';
import { retellAgentSpec } from './retell-agent-spec';
import { RetellAgents } from './retell-agents';
import {
  RETELL_CALL_EVENTS,
  RetellCall,
  RetellWebhook,
  callIdOf,
  isPoolFull,
  retellAnalysis,
  retellReport,
  retellTranscript,
} from './retell-calls';
import { RETELL_PATH, retellBaseUrl } from './retell-server';
import { verifyRetellSignature } from './retell-signature';
import { retellDynamicVariables } from './retell-voice.provider';

/** A call Retell ended for want of concurrency is placed again no sooner than this. */
const POOL_FULL_RETRY_MS = 5_000;
/** The source of the agent inbound calls are answered with (one per organization). */
const INBOUND_SOURCE = 'inbound';

/** Retell's custom-function request (its `args` not at the root, the default). */
interface RetellToolRequest {
  name?: unknown;
  args?: unknown;
  call?: RetellCall;
}

/** Retell's inbound-call webhook: asked before the call exists (no call id yet). */
interface RetellInboundRequest {
  event?: unknown;
  call_inbound?: { from_number?: unknown; to_number?: unknown };
}

interface RetellInboundAnswer {
  call_inbound: {
    override_agent_id?: string;
    dynamic_variables?: Record<string, string>;
    metadata?: Record<string, string>;
  };
}

/**
 * Retell's requests to us (docs/providers.md, "Retell"): call webhooks (`/events`), custom functions (`/tools`)
 * and the inbound-call webhook (`/inbound`), each verified by Retell's `x-retell-signature` (RETELL_API_KEY)
 * before the body is read. Each is translated into IngressEvents applied before answering (a failure is a 5xx
 * Retell redelivers) through the calls domain's VoiceIngress, which tolerates repeats and any order. Excluded from our OpenAPI documents: the bodies are
 * Retell's contract.
 */
@ApiExcludeController()
@Controller(RETELL_PATH.slice(1))
export class RetellEventsController {
  private readonly logger = new Logger(RetellEventsController.name);

  constructor(
    private readonly ingress: VoiceIngress,
    private readonly agents: RetellAgents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('events')
  @HttpCode(204)
  @ProviderCallback()
  async receive(@Req() request: RawBodyRequest<FastifyRequest>): Promise<void> {
    const body = this.verified<Partial<RetellWebhook>>(request);
    const call = body.call;
    if (!RETELL_CALL_EVENTS.includes(body.event as never) || !call || typeof call.call_id !== 'string') {
      throw ApiError.validation('event', 'a Retell call event with its call is required');
    }
    const callId = await this.callIdOf(call);
    if (!callId) {
      this.logger.debug({ event: body.event, providerCallId: call.call_id }, 'Retell event for no known call');
      return;
    }
    const providerCallId = call.call_id;
    switch (body.event) {
      case 'call_started':
        await this.ingress.apply({ kind: 'started', callId, providerCallId });
        await this.ingress.apply({ kind: 'status', callId, providerCallId, status: 'in-progress' });
        return;
      case 'transfer_started':
        await this.ingress.apply({ kind: 'status', callId, providerCallId, status: 'forwarding' });
        return;
      case 'call_ended':
        return this.ended(callId, call);
      case 'call_analyzed':
        return this.analyzed(callId, call);
      default:
        // transfer_bridged / _cancelled / _ended: the call's final report says how the transfer went.
        return;
    }
  }

  /**
   * The call ended: finished now, unless its case asked for an analysis Retell has not sent yet; then the call
   * waits for `call_analyzed` up to RETELL_ANALYSIS_GRACE_MS (past it, Retell is asked for the call and the call
   * ends from that). A call Retell had no room for goes back to wait.
   */
  private async ended(callId: string, call: RetellCall): Promise<void> {
    const row = await this.ingress.findCall(callId);
    if (!row || row.status !== 'processing') return;
    const base = { callId, providerCallId: call.call_id };
    if (isPoolFull(call)) {
      await this.ingress.apply({ ...base, kind: 'deferred', retryAfterMs: POOL_FULL_RETRY_MS });
      return;
    }
    const report = retellReport(call, row.tools ?? []);
    if (row.analysisPlan && !call.call_analysis && !report.failed) {
      await this.ingress.apply({ ...base, kind: 'conversation', messages: retellTranscript(call) });
      await this.ingress.apply({ ...base, kind: 'status', status: 'ended' });
      await this.ingress.apply({ ...base, kind: 'report-expected', graceMs: this.config.retell.analysisGraceMs });
      return;
    }
    await this.ingress.apply({ ...base, kind: 'end-of-call', report });
  }

  /** The analysis: it finishes a call still waiting for it, or fills one that ended without it. */
  private async analyzed(callId: string, call: RetellCall): Promise<void> {
    const row = await this.ingress.findCall(callId);
    if (!row) return;
    const base = { callId, providerCallId: call.call_id };
    if (row.status === 'processing' && !isPoolFull(call)) {
      await this.ingress.apply({ ...base, kind: 'end-of-call', report: retellReport(call, row.tools ?? []) });
      return;
    }
    await this.ingress.apply({ ...base, kind: 'late-analysis', analysis: retellAnalysis(call.call_analysis) });
  }

  /**
   * Our call for a Retell call: by Retell's id, else by our id in its metadata; an inbound call we have not
   * recorded yet (its first event) is recorded now, answered by the number's organization.
   */
  private async callIdOf(call: RetellCall): Promise<string | null> {
    const found = await this.ingress.findCallId(call.call_id, callIdOf(call));
    if (found || call.direction !== 'inbound') return found;
    const recorded = await this.ingress.startInbound({
      to: call.to_number,
      from: call.from_number,
      providerCallId: call.call_id,
      platform: 'retell',
    });
    return recorded?.id ?? null;
  }

  /**
   * A custom function: run as on every platform (the customer's tool, signed, bounded, recorded). Retell gives
   * an invocation no id: the call, the name and the arguments make one, so a retried request is one invocation.
   */
  @Post('tools')
  @HttpCode(200)
  @ProviderCallback()
  async tool(@Req() request: RawBodyRequest<FastifyRequest>): Promise<{ result: ToolResult }> {
    const body = this.verified<RetellToolRequest>(request);
    if (typeof body.name !== 'string' || !body.call || typeof body.call.call_id !== 'string') {
      throw ApiError.validation('name', 'a Retell function call names the function and its call');
    }
    const args = body.args && typeof body.args === 'object' && !Array.isArray(body.args) ? body.args : null;
    const digest = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16);
    const toolCallId = `${body.call.call_id}/${body.name}/${digest}`;
    const callId = await this.ingress.findCallId(body.call.call_id, callIdOf(body.call));
    const [reply] = await this.ingress.runTools(callId, [{ toolCallId, name: body.name, arguments: args }]);
    return { result: reply.result };
  }

  /**
   * An inbound call to a number on Retell: answered with the organization's inbound agent and the inbound
   * assistant's script; a number that is nobody's gets no agent (Retell then uses the number's own, or hangs up).
   */
  @Post('inbound')
  @HttpCode(200)
  @ProviderCallback()
  async answerInbound(@Req() request: RawBodyRequest<FastifyRequest>): Promise<RetellInboundAnswer> {
    const body = this.verified<RetellInboundRequest>(request);
    const to = body.call_inbound?.to_number;
    if (body.event !== 'call_inbound' || typeof to !== 'string') {
      throw ApiError.validation('call_inbound', 'a Retell call_inbound with its to_number is required');
    }
    const script = await this.ingress.inboundScript(to);
    if (!script) return { call_inbound: {} };
    const spec = retellAgentSpec({
      settings: DEFAULT_VOICE_SETTINGS,
      tools: [],
      voicemail: null,
      analysisPlan: null,
      maxDurationMs: this.config.callSupervision.maxDurationMs,
      baseUrl: retellBaseUrl(this.config),
    });
    const agentId = await this.agents.agentFor(script.organizationId, INBOUND_SOURCE, spec);
    return {
      call_inbound: {
        override_agent_id: agentId,
        dynamic_variables: retellDynamicVariables({ ...script, variableValues: null, voicemail: null }),
      },
    };
  }

  /** The body, once its signature holds (401 otherwise, before anything is read). */
  private verified<T>(request: RawBodyRequest<FastifyRequest>): T {
    const header = request.headers['x-retell-signature'];
    const apiKey = this.config.retell.apiKey;
    const valid =
      apiKey !== undefined &&
      request.rawBody !== undefined &&
      verifyRetellSignature(request.rawBody, apiKey, typeof header === 'string' ? header : undefined);
    if (!valid) throw new ApiError('UNAUTHORIZED', 'Missing or invalid Retell signature');
    const body = request.body;
    if (!body || typeof body !== 'object') throw ApiError.validation('body', 'a JSON object is required');
    return body as T;
  }
}
