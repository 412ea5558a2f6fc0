import type { CallAnalysis } from '../../call-outcomes/analysis-plan';
import type { AnsweredBy } from '../../call-outcomes/answered-by';
import type { ApiCallStatus, Call, PlatformAttempt, TranscriptMessage } from '../call.entity';
import type { TransferStatus } from '../../tools/call-tools';
import type { Invocation } from '../../tools/function-tool-invoker';
import type { TransferMode } from '../../tools/tool.entity';

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
  | { kind: 'end-of-call'; callId: string; providerCallId: string; report: EndOfCallReport }
  /**
   * The assistant called function tools (the simulator's; Vapi's are answered on the request that asks): they
   * run in the background, so applying the event does not wait for the customer's tools.
   */
  | { kind: 'tool-calls'; callId: string; providerCallId: string; invocations: Invocation[] };

export interface EndOfCallReport {
  /** true: the call ended on a provider or pipeline error (status `error`, event `call.failed`). */
  failed: boolean;
  endedReason: string;
  resultStatus: string | null;
  durationSeconds: number | null;
  recordingUrl: string | null;
  transcript: TranscriptMessage[];
  /** What the platform charged for the call (USD), when it says; kept as the call's `providerCost`. */
  providerCost?: number | null;
  /** The platform's own summary of the conversation, when it sends one (kept for post-call analysis). */
  summary?: string | null;
  /** Who the platform found on the line (before the call's detection setting is applied); null: nobody. */
  answeredBy?: AnsweredBy | null;
  /** The post-call analysis the platform produced, unchecked (the call keeps what its plan asked, validated). */
  analysis?: Partial<CallAnalysis> | null;
  /** The call was transferred to another number (docs/tools.md, "Transfers"). */
  transfer?: { to: string; mode: TransferMode; status: TransferStatus } | null;
}

/**
 * How a call ended, as far as billing and the outcome are concerned (docs/providers.md): `failed` (status
 * `error`, nothing billed), `not-connected` (nobody answered, nothing billed), `voicemail` (a machine answered) and
 * `answered` (billed by the talk time).
 */
export type OutcomeClass = 'failed' | 'not-connected' | 'voicemail' | 'answered';

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

/**
 * What placing a call came to. Expected refusals are results, not exceptions: `deferred` (the platform cannot
 * take the call now, e.g. its account's concurrency pool is full: the call goes back to wait, and is dispatched
 * again no sooner than `retryAfterMs` from now; `blockedProviderCallId` is the platform's id of the blocked
 * attempt when it gave one, so a late report of that attempt is never taken for the retry's) and `rejected`
 * (refused for good, or unreachable past the client's retries: the call ends in `error` with this endedReason). A
 * throw is a failure nobody expected (`pipeline-error`).
 */
export type PlaceCallResult =
  | { kind: 'placed'; providerCallId: string }
  | {
      kind: 'deferred';
      reason: string;
      retryAfterMs: number;
      blockedProviderCallId?: string | null;
      /** The platform was unavailable (the call waits for it): the failed attempt, kept on the call. */
      attempt?: PlatformAttempt;
      /** The failed attempt may have placed the call: the platform is asked before the next placement. */
      unconfirmed?: boolean;
    }
  /**
   * `unavailable`: the platform could not be reached or failed (connection error, timeout, 5xx), as opposed to
   * refusing this call (a 4xx about it): only such a failure places the call on its number's fallback platform,
   * or makes a call without one wait. `uncertain`: the platform may have placed the call all the same (a timeout,
   * a reset connection, a 5xx other than 503).
   */
  | { kind: 'rejected'; endedReason: string; unavailable?: boolean; uncertain?: boolean };

/** A voice platform that places outbound calls; each call's is the one it stores (VoicePlatforms). */
export abstract class VoiceProvider {
  /** Asks the platform to place the call: `placed` once the platform accepted it (status `queued`). */
  abstract placeCall(call: Call): Promise<PlaceCallResult>;

  /** The platform's view of a call, or null when it cannot say (unknown call, platform unreachable). */
  abstract getCall(call: Call): Promise<ProviderCallState | null>;

  /**
   * After a placement that failed ambiguously (it may have placed the call), whether the platform has the call:
   * its id, or null when it certainly has not; throws when it cannot tell now. A platform without it cannot be
   * asked: such a call is never placed again (docs/providers.md, "Waiting for the platform").
   */
  findPlaced?(call: Call, since: Date): Promise<string | null>;

  /**
   * How long after `endCall` resolved null the platform's end-of-call report may take before the platform is
   * asked for the call (CallReportRecoveryJob): its report may be lost on the way.
   */
  abstract readonly reportGraceMs: number;

  /**
   * Asks the platform to end a live call now (`POST /api/v1/calls/{id}/end`). Resolves with the end-of-call
   * report when the platform ended the call on the spot (the simulator), or null when the platform reports the
   * end through its own messages later (Vapi). Throws when the platform could not be asked.
   */
  abstract endCall(call: Call): Promise<EndOfCallReport | null>;
}
