import type { Retell } from 'retell-sdk';
import type { CallAnalysis } from '../../../call-outcomes/analysis-plan';
import type { CallTool } from '../../../tools/call-tools';
import type { TransferMode } from '../../../tools/tool.entity';
import type { ApiCallStatus, TranscriptMessage } from '../../../calls/call.entity';
import type { EndOfCallReport } from '../../../calls/voice/voice-provider';
import { RetellOutcome, retellOutcomeOf } from './retell-disconnection-reasons';

export type RetellCall = Retell.PhoneCallResponse;

/** The events Retell's agent webhook sends (the agent's `webhook_events`); each carries the whole call. */
export const RETELL_CALL_EVENTS = [
  'call_started',
  'call_ended',
  'call_analyzed',
  'transfer_started',
  'transfer_bridged',
  'transfer_cancelled',
  'transfer_ended',
] as const;
export type RetellCallEvent = (typeof RETELL_CALL_EVENTS)[number];

export interface RetellWebhook {
  event: RetellCallEvent;
  call: RetellCall;
}

/** Our call id, as the call's metadata carries it (set at POST /v2/create-phone-call and on inbound calls). */
export function callIdOf(call: Pick<RetellCall, 'metadata'> | undefined): string | null {
  const metadata = call?.metadata as { callId?: unknown } | null | undefined;
  return typeof metadata?.callId === 'string' ? metadata.callId : null;
}

/** Retell's `transcript_object` in our shape; a line's time is the call's start plus the first word's offset. */
export function retellTranscript(call: Pick<RetellCall, 'transcript_object' | 'start_timestamp'>): TranscriptMessage[] {
  return (call.transcript_object ?? []).flatMap((line) => {
    const role = line.role === 'agent' ? 'assistant' : line.role === 'user' ? 'user' : null;
    if (!role || typeof line.content !== 'string' || !line.content) return [];
    const offset = line.words?.[0]?.start;
    const timestamp =
      typeof call.start_timestamp === 'number' && typeof offset === 'number'
        ? Math.round(call.start_timestamp + offset * 1000)
        : null;
    return [{ role, content: line.content, timestamp }];
  });
}

/** Retell's call status as ours: `registered` is queued, `ongoing` in progress, the rest ended. */
export function retellStatus(call: Pick<RetellCall, 'call_status'>): ApiCallStatus {
  if (call.call_status === 'registered') return 'queued';
  if (call.call_status === 'ongoing') return 'in-progress';
  return 'ended';
}

/** Retell's analysis in our terms (`call_summary`, `call_successful`, `custom_analysis_data`). */
export function retellAnalysis(analysis: RetellCall['call_analysis']): Partial<CallAnalysis> | null {
  if (!analysis) return null;
  const data = analysis.custom_analysis_data;
  return {
    summary: typeof analysis.call_summary === 'string' && analysis.call_summary ? analysis.call_summary : null,
    structuredData: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null,
    success: typeof analysis.call_successful === 'boolean' ? analysis.call_successful : null,
  };
}

/** The mode of the transfer destination the call went to, from the call's own tools (cold when it names none). */
function transferModeOf(tools: readonly CallTool[], to: string): TransferMode {
  const destination = tools.flatMap((t) => t.destinations ?? []).find((d) => d.number === to);
  return destination?.mode ?? 'cold';
}

function outcomeOfCall(call: RetellCall): RetellOutcome {
  if (call.disconnection_reason) return retellOutcomeOf(call.disconnection_reason);
  if (call.call_status === 'error') return 'failed';
  if (call.call_status === 'not_connected') return 'not-connected';
  return 'answered';
}

/** endedReason: Retell's own, except the transfers and voicemail, reported as on every platform. */
function endedReasonOf(call: RetellCall, outcome: RetellOutcome): string {
  if (outcome === 'forwarded') return 'assistant-forwarded-call';
  if (outcome === 'voicemail') return 'voicemail-reached';
  return call.disconnection_reason ?? call.call_status;
}

/** A Retell call that ended because Retell's concurrency was used up: it goes back to wait. */
export const isPoolFull = (call: RetellCall) => outcomeOfCall(call) === 'pool-full';

/**
 * The end-of-call report of an ended Retell call (a `call_ended` or `call_analyzed` body, or GET /v2/get-call).
 * A call that never connected bills nothing (duration 0), a failed one has none (null); `call_cost.combined_cost`
 * is in cents, `providerCost` in USD.
 */
export function retellReport(call: RetellCall, tools: readonly CallTool[]): EndOfCallReport {
  const outcome = outcomeOfCall(call);
  const failed = outcome === 'failed';
  const transcript = retellTranscript(call);
  const talked = !failed && outcome !== 'not-connected';
  const duration = talked && typeof call.duration_ms === 'number' ? call.duration_ms / 1000 : 0;
  const connected = duration > 0 || (talked && transcript.some((m) => m.role === 'user'));
  const voicemail = outcome === 'voicemail' || (talked && call.call_analysis?.in_voicemail === true);
  const cost = call.call_cost?.combined_cost;
  const to = call.transfer_destination;
  let resultStatus: string | null = null;
  if (!failed) resultStatus = voicemail ? 'Voicemail' : connected ? 'Answered' : 'Not Answered';
  let answeredBy: EndOfCallReport['answeredBy'] = null;
  if (voicemail) answeredBy = 'voicemail';
  else if (outcome === 'ivr') answeredBy = 'unknown';
  else if (talked && connected) answeredBy = 'human';
  const analysis = retellAnalysis(call.call_analysis);
  return {
    failed,
    endedReason: voicemail && outcome !== 'voicemail' ? 'voicemail-reached' : endedReasonOf(call, outcome),
    resultStatus,
    durationSeconds: failed ? null : duration,
    recordingUrl: call.recording_url ?? null,
    transcript,
    providerCost: typeof cost === 'number' && Number.isFinite(cost) ? cost / 100 : null,
    summary: analysis?.summary ?? null,
    answeredBy,
    analysis,
    transfer: to
      ? {
          to,
          mode: transferModeOf(tools, to),
          status: outcome === 'forwarded' ? 'completed' : 'failed',
        }
      : null,
  };
}
