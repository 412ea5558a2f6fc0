import type { ApiCallStatus, Call, TranscriptMessage } from '../call.entity';

/**
 * What a voice platform reports about a call, in our own terms. Adapters translate their wire format into these
 * and hand them to CallEventsService.apply inline (the Vapi controller on the request that carried them, the
 * simulator in its step job, the supervisor when it reconciles), which applies them idempotently and in any order.
 * `callId` is ours (passed to the platform as metadata); `providerCallId` is the platform's (`apiCallId`).
 */
export type PlatformEvent =
  | { kind: 'status'; callId: string; providerCallId: string; status: ApiCallStatus }
  /** The whole conversation so far (never a delta), so a late or repeated update cannot shrink or duplicate it. */
  | { kind: 'conversation'; callId: string; providerCallId: string; messages: TranscriptMessage[] }
  /** One finished utterance (a live transcript line); appended once, however often it is delivered. */
  | { kind: 'utterance'; callId: string; providerCallId: string; message: TranscriptMessage }
  | { kind: 'end-of-call'; callId: string; providerCallId: string; report: EndOfCallReport };

export interface EndOfCallReport {
  /** true: the call ended on a provider or pipeline error (status `error`, event `call.failed`). */
  failed: boolean;
  endedReason: string;
  resultStatus: string | null;
  durationSeconds: number | null;
  recordingUrl: string | null;
  transcript: TranscriptMessage[];
}

/** How a call ends when the platform cannot be reached or the dispatching worker died. */
export const PIPELINE_ERROR_REPORT: EndOfCallReport = Object.freeze({
  failed: true,
  endedReason: 'pipeline-error',
  resultStatus: null,
  durationSeconds: null,
  recordingUrl: null,
  transcript: [],
});

/** What the platform says about a call when asked (supervision): its status, and its report once ended. */
export interface ProviderCallState {
  status: ApiCallStatus;
  report: EndOfCallReport | null;
}

/** The platform refused or could not take a call; the call ends in `error` with this endedReason. */
export class VoiceCallRejected extends Error {
  constructor(readonly endedReason: string) {
    super(endedReason);
  }
}

/** A voice platform that places outbound calls. Selected by VOICE_PROVIDER. */
export abstract class VoiceProvider {
  /**
   * Asks the platform to place the call; resolves once the platform accepted it (status `queued`). Throws
   * VoiceCallRejected when the platform refused it for good.
   */
  abstract placeCall(call: Call): Promise<{ providerCallId: string }>;

  /** The platform's view of a call, or null when it cannot say (unknown call, platform unreachable). */
  abstract getCall(call: Call): Promise<ProviderCallState | null>;
}
