import type { Vapi } from '@vapi-ai/server-sdk';
import { API_CALL_STATUSES, ApiCallStatus, TranscriptMessage } from '../../call.entity';
import type { EndOfCallReport, PlatformEvent } from '../voice-provider';

/** A conversation line as Vapi reports it (`artifact.messages`, `conversation-update.messages`, `call.messages`). */
type VapiMessage = Vapi.ArtifactMessagesItem;

/** The server messages this platform acts on; every other type is acknowledged and ignored. */
export type VapiCallMessage =
  | Vapi.ServerMessageStatusUpdate
  | Vapi.ServerMessageConversationUpdate
  | Vapi.ServerMessageTranscript
  | Vapi.ServerMessageEndOfCallReport;

const CALL_MESSAGE_TYPES: ReadonlySet<string> = new Set<VapiCallMessage['type']>([
  'status-update',
  'conversation-update',
  'transcript',
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

const isFailure = (endedReason: string) => /error|failed|fault/i.test(endedReason);

/**
 * resultStatus: the analysis's structured `resultStatus` when the assistant produced one; otherwise from the
 * ended reason (voicemail, no answer), else Answered when the call connected.
 */
export function resultStatusOf(endedReason: string, connected: boolean, analysis?: Vapi.Analysis): string | null {
  const fromAnalysis = analysis?.structuredData?.resultStatus;
  if (typeof fromAnalysis === 'string' && fromAnalysis) return fromAnalysis;
  if (isFailure(endedReason)) return null;
  if (/voicemail/i.test(endedReason)) return 'Voicemail';
  if (/did-not-answer|no-answer|customer-busy/i.test(endedReason)) return 'Not Answered';
  return connected ? 'Answered' : 'Not Answered';
}

function secondsBetween(startedAt?: string, endedAt?: string): number | null {
  if (!startedAt || !endedAt) return null;
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}

/**
 * A final report from an end-of-call-report message or an ended Call object (GET /call/{id}). The duration is
 * endedAt - startedAt: Vapi's typed report carries no duration field of its own.
 */
export function toReport(source: Vapi.ServerMessageEndOfCallReport | Vapi.Call): EndOfCallReport {
  const endedReason = source.endedReason ?? 'unknown';
  const transcript = toTranscript(source.artifact?.messages ?? ('messages' in source ? source.messages : undefined));
  const duration = secondsBetween(source.startedAt, source.endedAt);
  const connected = (duration ?? 0) > 0 || transcript.some((m) => m.role === 'user');
  const failed = isFailure(endedReason);
  return {
    failed,
    endedReason,
    resultStatus: resultStatusOf(endedReason, connected, source.analysis),
    durationSeconds: failed && !connected ? null : (duration ?? 0),
    recordingUrl: source.artifact?.recordingUrl ?? source.artifact?.recording?.mono?.combinedUrl ?? null,
    transcript,
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
    case 'transcript': {
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
