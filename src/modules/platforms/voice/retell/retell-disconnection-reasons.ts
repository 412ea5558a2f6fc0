import type { Retell } from 'retell-sdk';
import type { OutcomeClass } from '../../../calls/voice/voice-provider';

/** Retell's `disconnection_reason` union, as the SDK declares it on a phone call. */
export type RetellDisconnectionReason = NonNullable<Retell.PhoneCallResponse['disconnection_reason']>;

/**
 * How a Retell call ended, in our terms: the port's outcome classes, plus the three Retell tells apart that the
 * others do not: `forwarded` (transferred: endedReason `assistant-forwarded-call`), `ivr` (a phone tree answered:
 * ended with `answeredBy: unknown`) and `pool-full` (Retell's concurrency was used up: the call waits and is
 * placed again, never `error`).
 */
export type RetellOutcome = OutcomeClass | 'forwarded' | 'ivr' | 'pool-full';

/**
 * Every value of the SDK's `disconnection_reason` with its outcome (docs/providers.md, "How a Retell call ends").
 * A Record over the SDK's union: an SDK release that adds a reason does not compile until it is placed here
 * (retell-disconnection-reasons.spec.ts proves a missing key is an error).
 */
export const RETELL_DISCONNECTION_REASONS: Record<RetellDisconnectionReason, RetellOutcome> = {
  user_hangup: 'answered',
  agent_hangup: 'answered',
  inactivity: 'answered',
  max_duration_reached: 'answered',
  manual_stopped: 'answered',
  call_take_over: 'answered',
  transfer_cancelled: 'answered',
  call_transfer: 'forwarded',
  transfer_bridged: 'forwarded',
  voicemail_reached: 'voicemail',
  ivr_reached: 'ivr',
  concurrency_limit_reached: 'pool-full',
  no_concurrency_fallback: 'pool-full',
  dial_no_answer: 'not-connected',
  dial_busy: 'not-connected',
  dial_failed: 'not-connected',
  user_declined: 'not-connected',
  invalid_destination: 'not-connected',
  no_valid_payment: 'failed',
  scam_detected: 'failed',
  marked_as_spam: 'failed',
  registered_call_timeout: 'failed',
  telephony_provider_permission_denied: 'failed',
  telephony_provider_unavailable: 'failed',
  sip_routing_error: 'failed',
  error_llm_websocket_open: 'failed',
  error_llm_websocket_lost_connection: 'failed',
  error_llm_websocket_runtime: 'failed',
  error_llm_websocket_corrupt_payload: 'failed',
  error_no_audio_received: 'failed',
  error_asr: 'failed',
  error_retell: 'failed',
  error_unknown: 'failed',
  error_user_not_joined: 'failed',
};

/** The outcome of a reason; one the SDK does not list (a newer Retell): failures by name, else a normal end. */
export function retellOutcomeOf(reason: string | undefined | null): RetellOutcome {
  if (!reason) return 'answered';
  if (Object.hasOwn(RETELL_DISCONNECTION_REASONS, reason)) {
    return RETELL_DISCONNECTION_REASONS[reason as RetellDisconnectionReason];
  }
  return /error|fail/i.test(reason) ? 'failed' : 'answered';
}
