import type { Vapi } from '@vapi-ai/server-sdk';
import { API_CALL_STATUSES, ApiCallStatus, TranscriptMessage } from '../../../calls/call.entity';
import type { EndOfCallReport, OutcomeClass, PlatformEvent } from '../../../calls/voice/voice-provider';
import { VAPI_ENDED_REASONS } from './vapi-ended-reasons';
import { analysisFromVapi } from './vapi-outcomes';

/** A conversation line as Vapi reports it (`artifact.messages`, `conversation-update.messages`, `call.messages`). */
type VapiMessage = Vapi.ArtifactMessagesItem;

/** The server messages this platform acts on; every other type is acknowledged and ignored. */
export type VapiCallMessage =
  | Vapi.ServerMessageStatusUpdate
  | Vapi.ServerMessageConversationUpdate
  | Vapi.ServerMessageTranscript
  | Vapi.ServerMessageEndOfCallReport;

/**
 * A final transcript arrives typed `transcript` or, when the call subscribed to the filtered form only, typed as that
 * subscription (`transcript[transcriptType="final"]`, one of the SDK's two values for a transcript's type).
 */
const FINAL_TRANSCRIPT = 'transcript[transcriptType="final"]';

const CALL_MESSAGE_TYPES: ReadonlySet<string> = new Set<VapiCallMessage['type']>([
  'status-update',
  'conversation-update',
  'transcript',
  FINAL_TRANSCRIPT,
  'end-of-call-report',
]);

export const isCallMessage = (message: Vapi.ServerMessageMessage): message is VapiCallMessage =>
  typeof message.type === 'string' && CALL_MESSAGE_TYPES.has(message.type);

const ROLES: Record<string, TranscriptMessage['role']> = {
  bot: 'assistant',
  assistant: 'assistant',
  user: 'user',
  system: 'system',
};

/** Vapi's conversation lines in our transcript shape; tool calls and their results are not part of it. */
export function toTranscript(messages: readonly VapiMessage[] | undefined): TranscriptMessage[] {
  return (messages ?? []).flatMap((m) =>
    ROLES[m.role] && 'message' in m && typeof m.message === 'string'
      ? [{ role: ROLES[m.role], content: m.message, timestamp: typeof m.time === 'number' ? m.time : null }]
      : [],
  );
}

/** Our call id as carried by a message: the inline assistant's metadata (set at POST /call). */
export function callIdOf(message: VapiCallMessage): string | null {
  const candidates = [message.call?.assistant?.metadata?.callId, message.assistant?.metadata?.callId];
  const found = candidates.find((c) => typeof c === 'string');
  return (found as string | undefined) ?? null;
}

/** A reason the SDK does not list (a newer platform): failures by their name, anything else as a normal end. */
const isFailure = (endedReason: string) => /error|failed|fault/i.test(endedReason);

/** The outcome class of an ended reason (VAPI_ENDED_REASONS; docs/providers.md). */
export function outcomeOf(endedReason: string): OutcomeClass {
  if (Object.hasOwn(VAPI_ENDED_REASONS, endedReason)) return VAPI_ENDED_REASONS[endedReason as Vapi.CallEndedReason];
  return isFailure(endedReason) ? 'failed' : 'answered';
}

/** The endedReason we report: Vapi's own, except its `voicemail`, which is our `voicemail-reached`. */
const reportedReason = (endedReason: string) => (endedReason === 'voicemail' ? 'voicemail-reached' : endedReason);

/**
 * resultStatus: none for a failed call; otherwise the analysis's structured `resultStatus` when the assistant
 * produced one, else from the outcome class (a normal end that never connected is Not Answered).
 */
export function resultStatusOf(endedReason: string, connected: boolean, analysis?: Vapi.Analysis): string | null {
  const outcome = outcomeOf(endedReason);
  if (outcome === 'failed') return null;
  const fromAnalysis = analysis?.structuredData?.resultStatus;
  if (typeof fromAnalysis === 'string' && fromAnalysis) return fromAnalysis;
  if (outcome === 'voicemail') return 'Voicemail';
  return outcome === 'answered' && connected ? 'Answered' : 'Not Answered';
}

function secondsBetween(startedAt?: string, endedAt?: string): number | null {
  if (!startedAt || !endedAt) return null;
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}

/**
 * A final report from an end-of-call-report message or an ended Call object (GET /call/{id}). Vapi's
 * startedAt/endedAt give the duration only of a call that connected (answered or voicemail): a call that failed
 * or was never picked up has none that bills (failed: null, not connected: 0), whatever time it spent ringing.
 */
export function toReport(source: Vapi.ServerMessageEndOfCallReport | Vapi.Call): EndOfCallReport {
  const endedReason = source.endedReason ?? 'unknown';
  const outcome = outcomeOf(endedReason);
  const transcript = toTranscript(source.artifact?.messages ?? ('messages' in source ? source.messages : undefined));
  const talked = outcome === 'answered' || outcome === 'voicemail';
  const duration = talked ? (secondsBetween(source.startedAt, source.endedAt) ?? 0) : 0;
  const connected = duration > 0 || (talked && transcript.some((m) => m.role === 'user'));
  return {
    failed: outcome === 'failed',
    endedReason: reportedReason(endedReason),
    resultStatus: resultStatusOf(endedReason, connected, source.analysis),
    durationSeconds: outcome === 'failed' ? null : duration,
    recordingUrl: source.artifact?.recordingUrl ?? source.artifact?.recording?.mono?.combinedUrl ?? null,
    transcript,
    providerCost: typeof source.cost === 'number' && Number.isFinite(source.cost) ? source.cost : null,
    summary: typeof source.analysis?.summary === 'string' && source.analysis.summary ? source.analysis.summary : null,
    answeredBy: outcome === 'voicemail' ? 'voicemail' : outcome === 'answered' && connected ? 'human' : null,
    analysis: analysisFromVapi(source.analysis),
    transfer: transferOf(source.destination, endedReason),
  };
}

/**
 * The transfer a forwarded call made (docs/tools.md, "Transfers"): the number it went to, warm when its plan
 * said a message first; failed when the forwarding itself ended the call (`call.forwarding.*`).
 */
function transferOf(
  destination: Vapi.ServerMessageEndOfCallReport['destination'] | Vapi.Call['destination'],
  endedReason: string,
): EndOfCallReport['transfer'] {
  if (destination?.type !== 'number' || !destination.number) return null;
  return {
    to: destination.number,
    mode: destination.transferPlan?.mode?.startsWith('warm') ? 'warm' : 'cold',
    status: endedReason.startsWith('call.forwarding.') ? 'failed' : 'completed',
  };
}

export const isApiCallStatus = (s: unknown): s is ApiCallStatus => API_CALL_STATUSES.includes(s as ApiCallStatus);

/**
 * The platform events one server message carries for a known call. A status-update `ended` only moves
 * apiCallStatus: the end-of-call-report (or supervision) finishes the call with its figures.
 */
export function toPlatformEvents(message: VapiCallMessage, callId: string): PlatformEvent[] {
  const providerCallId = message.call?.id ?? '';
  const base = { callId, providerCallId };
  switch (message.type) {
    case 'status-update':
      return isApiCallStatus(message.status) ? [{ ...base, kind: 'status', status: message.status }] : [];
    case 'conversation-update':
      return [{ ...base, kind: 'conversation', messages: toTranscript(message.messages) }];
    case 'transcript':
    case FINAL_TRANSCRIPT: {
      const role = ROLES[message.role];
      if (message.transcriptType !== 'final' || !role || !message.transcript) return [];
      const line = { role, content: message.transcript, timestamp: message.timestamp ?? null };
      return [{ ...base, kind: 'utterance', message: line }];
    }
    case 'end-of-call-report':
      return [{ ...base, kind: 'end-of-call', report: toReport(message) }];
    default:
      return [];
  }
}
