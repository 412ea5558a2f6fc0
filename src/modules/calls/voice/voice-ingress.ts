import type { CallAnalysis } from '../../call-outcomes/analysis-plan';
import type { Invocation } from '../../tools/function-tool-invoker';
import type { Call } from '../call.entity';
import type { InboundCallInput } from '../inbound/inbound-calls.service';
import type { ToolCallReply } from '../tool-calls.service';
import type { PlatformEvent } from './voice-provider';

/**
 * What a platform's ingress may report beyond PlatformEvent (which supervision reports too): that the platform
 * took the call (`started`), that its end-of-call report is due within `graceMs` (`report-expected`: past it,
 * the platform is asked for the call), that it had no room for the call after all (`deferred`: the call goes back
 * to wait), and a post-call analysis arriving after the call ended (`late-analysis`).
 */
export type IngressEvent =
  | PlatformEvent
  | { kind: 'started'; callId: string; providerCallId: string }
  | { kind: 'report-expected'; callId: string; providerCallId: string; graceMs: number }
  | { kind: 'deferred'; callId: string; providerCallId: string; retryAfterMs: number }
  | { kind: 'late-analysis'; callId: string; providerCallId: string; analysis: Partial<CallAnalysis> | null };

export type CallScript = Pick<
  Call,
  'id' | 'callTo' | 'systemPrompt' | 'firstMessage' | 'voicemail' | 'analysisPlan' | 'tools'
>;

/** What an inbound call is answered with before the call is recorded (a platform that asks first). */
export interface InboundScript {
  organizationId: string;
  systemPrompt: string;
  firstMessage: string;
}

/**
 * The port through which a voice platform's ingress (its callback controller, the simulator's steps) reaches the
 * calls domain: the ingress only translates its wire format into IngressEvents and requests, and the calls domain
 * implements this port (VoiceIngressApplier), so no platform code imports a calls service. Every event may arrive
 * twice, late or out of order; applying it is idempotent.
 */
export abstract class VoiceIngress {
  /** Our call for a platform's call: by the platform's id, else by our id carried in its metadata. */
  abstract findCallId(providerCallId: string | null, ours: string | null): Promise<string | null>;

  /** The call as stored (the row an adapter reads), or null when it is gone. */
  abstract findCall(callId: string): Promise<Call | null>;

  /** What a simulated call plays from (its script, outcome settings and tools), without the rest of the row. */
  abstract findScript(callId: string): Promise<CallScript | null>;

  /** Applies one event (the one applier of every voice platform's reports). */
  abstract apply(event: IngressEvent): Promise<void>;

  /** Runs the function tools the call's assistant asked for and answers each (a failure as its message). */
  abstract runTools(callId: string | null, invocations: Invocation[]): Promise<ToolCallReply[]>;

  /** Records an inbound call to an organization's number; null when the number is nobody's. */
  abstract startInbound(input: InboundCallInput): Promise<Call | null>;

  /** What an inbound call to `to` is answered with, or null when the number is nobody's. */
  abstract inboundScript(to: string): Promise<InboundScript | null>;
}
