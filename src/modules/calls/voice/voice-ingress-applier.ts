import { Injectable } from '@nestjs/common';
import type { Invocation } from '../../tools/function-tool-invoker';
import type { Call } from '../call.entity';
import { CallEventsService } from '../call-events.service';
import { CallsRepository } from '../calls.repository';
import { CallDispatchQueue } from '../dispatch/call-dispatch-queue';
import { InboundCallInput, InboundCallsService } from '../inbound/inbound-calls.service';
import { CallReportRecoveryJob } from '../supervision/call-report-recovery.job';
import { ToolCallReply, ToolCallsService } from '../tool-calls.service';
import { CallScript, IngressEvent, InboundScript, VoiceIngress } from './voice-ingress';

/**
 * The calls domain's side of VoiceIngress: each event and request goes to the rule that owns it (the call's
 * state and events to CallEventsService, a due report to CallReportRecoveryJob, a call back to wait to the
 * dispatch queue, tools to ToolCallsService, inbound calls to InboundCallsService).
 */
@Injectable()
export class VoiceIngressApplier extends VoiceIngress {
  constructor(
    private readonly events: CallEventsService,
    private readonly calls: CallsRepository,
    private readonly reports: CallReportRecoveryJob,
    private readonly dispatchQueue: CallDispatchQueue,
    private readonly toolCalls: ToolCallsService,
    private readonly inbound: InboundCallsService,
  ) {
    super();
  }

  findCallId(providerCallId: string | null, ours: string | null): Promise<string | null> {
    return this.events.findCallId(providerCallId, ours);
  }

  findCall(callId: string): Promise<Call | null> {
    return this.calls.findById(callId);
  }

  findScript(callId: string): Promise<CallScript | null> {
    return this.calls.findScript(callId);
  }

  async apply(event: IngressEvent): Promise<void> {
    switch (event.kind) {
      case 'started':
        await this.events.started(event.callId, event.providerCallId);
        return;
      case 'report-expected':
        await this.reports.expectReport(event.callId, event.graceMs);
        return;
      case 'deferred': {
        // Only a call still in `processing` goes back to wait; the blocked attempt's id is kept, so a late report
        // of it is never taken for the retry's.
        const retryAt = new Date(Date.now() + event.retryAfterMs);
        if (await this.calls.defer(event.callId, retryAt, event.providerCallId)) {
          await this.dispatchQueue.enqueueRetry(event.callId, retryAt);
        }
        return;
      }
      case 'late-analysis':
        await this.events.lateAnalysis(event.callId, event.analysis);
        return;
      default:
        await this.events.apply(event);
    }
  }

  runTools(callId: string | null, invocations: Invocation[]): Promise<ToolCallReply[]> {
    // An unknown call still gets an answer per invocation: ToolCallsService answers each with the failure message.
    return this.toolCalls.run(callId ?? '', invocations);
  }

  startInbound(input: InboundCallInput): Promise<Call | null> {
    return this.inbound.start(input);
  }

  inboundScript(to: string): Promise<InboundScript | null> {
    return this.inbound.answerScript(to);
  }
}
