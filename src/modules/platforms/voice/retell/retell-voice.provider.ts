import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Retell } from 'retell-sdk';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { DEFAULT_VOICE_SETTINGS } from '../../../assistants/voice-settings';
import { RetellCallDeferred, RetellCallRejected, RetellClient, RetellRequestRejected } from './retell-client';
import type { Call } from '../../../calls/call.entity';
import {
  EndOfCallReport,
  PlaceCallResult,
  ProviderCallState,
  VoiceProvider,
} from '../../../calls/voice/voice-provider';
import { SCRIPT_VARIABLES, retellAgentSpec } from './retell-agent-spec';
import { RetellAgents } from './retell-agents';
import { RetellCall, isPoolFull, retellReport, retellStatus } from './retell-calls';
import { retellBaseUrl } from './retell-server';

/** Which calls share one Retell LLM and agent: an organization's calls of one case with one assistant. */
export const agentSourceOf = (call: Pick<Call, 'caseId' | 'assistantConfigId'>) =>
  `case:${call.caseId ?? '-'}/assistant:${call.assistantConfigId ?? '-'}`;

/** The per-call dynamic variables: the case's variables and the call's own rendered script (retell-agent-spec.ts). */
export function retellDynamicVariables(
  call: Pick<Call, 'variableValues' | 'systemPrompt' | 'firstMessage' | 'voicemail'>,
): Record<string, string> {
  return {
    ...(call.variableValues ?? {}),
    [SCRIPT_VARIABLES.systemPrompt]: call.systemPrompt ?? '',
    [SCRIPT_VARIABLES.firstMessage]: call.firstMessage ?? '',
    ...(call.voicemail?.message ? { [SCRIPT_VARIABLES.voicemailMessage]: call.voicemail.message } : {}),
  };
}

/**
 * The Retell platform (docs/providers.md, "Retell"): the call's LLM and agent (made once per case and assistant,
 * RetellAgents), then POST /v2/create-phone-call from the number, with the call's dynamic variables and our id in
 * `metadata.callId`.
 */
@Injectable()
export class RetellVoiceProvider extends VoiceProvider {
  private readonly logger = new Logger(RetellVoiceProvider.name);

  constructor(
    private readonly client: RetellClient,
    private readonly agents: RetellAgents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  /** RETELL_REPORT_GRACE_MS: how long `call_ended` may take after a live end before Retell is asked. */
  get reportGraceMs(): number {
    return this.config.retell.reportGraceMs;
  }

  async placeCall(call: Call): Promise<PlaceCallResult> {
    if (!call.providerNumberId) {
      return {
        kind: 'rejected',
        endedReason: `phone-number-not-configured: ${call.callFrom} has no voice platform id`,
      };
    }
    try {
      const agentId = await this.agentFor(call);
      const body: Retell.CallCreatePhoneCallParams = {
        from_number: call.providerNumberId,
        to_number: call.callTo,
        override_agent_id: agentId,
        retell_llm_dynamic_variables: retellDynamicVariables(call),
        metadata: { callId: call.id },
      };
      const created = await this.client.createPhoneCall(body);
      return { kind: 'placed', providerCallId: created.call_id };
    } catch (error) {
      if (error instanceof RetellCallDeferred) {
        return { kind: 'deferred', reason: error.reason, retryAfterMs: error.retryAfterMs };
      }
      if (error instanceof RetellCallRejected) {
        const { endedReason, unavailable, uncertain } = error;
        return { kind: 'rejected', endedReason, unavailable, uncertain };
      }
      throw error;
    }
  }

  /** The agent for the call; a failure to make it is the platform's refusal (4xx) or unavailability (else). */
  private async agentFor(call: Call): Promise<string> {
    const spec = retellAgentSpec({
      settings: call.voiceSettings ?? DEFAULT_VOICE_SETTINGS,
      tools: call.tools ?? [],
      voicemail: call.voicemail,
      analysisPlan: call.analysisPlan,
      maxDurationMs: this.config.callSupervision.maxDurationMs,
      baseUrl: retellBaseUrl(this.config),
    });
    try {
      return await this.agents.agentFor(call.organizationId, agentSourceOf(call), spec);
    } catch (error) {
      const refused = error instanceof RetellRequestRejected && error.status < 500 && error.status !== 429;
      throw new RetellCallRejected(
        `retell-${refused ? 'rejected' : 'unavailable'}: agent: ${(error as Error).message}`.slice(0, 300),
        !refused,
      );
    }
  }

  async getCall(call: Call): Promise<ProviderCallState | null> {
    if (!call.apiCallId) return null;
    try {
      const found = await this.client.getCall(call.apiCallId);
      if (!found) return null;
      const status = retellStatus(found);
      const ended = status === 'ended' && !isPoolFull(found);
      return { status, report: ended ? retellReport(found, call.tools ?? []) : null };
    } catch (error) {
      this.logger.warn({ callId: call.id, err: (error as Error).message }, 'Retell could not say how the call is');
      return null;
    }
  }

  /**
   * POST /v3/list-calls filtered by our id in the call's metadata: the call Retell placed for it, other than the
   * attempts a full pool turned away (ended `concurrency_limit_reached`, kept as blocked attempts).
   */
  override async findPlaced(call: Call): Promise<string | null> {
    const blocked = new Set(call.blockedApiCallIds ?? []);
    const placed = await this.client.listCallsOf(call.id);
    const ours = placed.find((c) => !blocked.has(c.call_id) && !isPoolFull(c as RetellCall));
    return ours?.call_id ?? null;
  }

  /** POST /v2/stop-call/{id}; Retell then sends `call_ended`, which finishes the call. */
  async endCall(call: Call): Promise<EndOfCallReport | null> {
    if (!call.apiCallId) throw new Error('the call has not reached Retell yet');
    await this.client.stopCall(call.apiCallId);
    return null;
  }
}
