import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutcomeClass } from '../../../calls/voice/voice-provider';
import {
  RETELL_DISCONNECTION_REASONS,
  RetellDisconnectionReason,
  RetellOutcome,
  retellOutcomeOf,
} from './retell-disconnection-reasons';

type Mapped = keyof typeof RETELL_DISCONNECTION_REASONS;
/** true only when the table's keys are exactly the SDK's disconnection_reason union (checked by `npm run typecheck`). */
type SameKeys = [RetellDisconnectionReason] extends [Mapped]
  ? [Mapped] extends [RetellDisconnectionReason]
    ? true
    : false
  : false;
const tableIsExact: SameKeys = true;

// A table that leaves a reason out does not compile: this is what an SDK release adding a reason runs into.
// @ts-expect-error missing every reason but one
const incomplete: Record<RetellDisconnectionReason, RetellOutcome> = { user_hangup: 'answered' };

/** The union as the SDK's declaration file spells it (a type has no run-time form to compare with). */
function declaredReasons(): string[] {
  const declarations = readFileSync(join(dirname(require.resolve('retell-sdk')), 'resources/call.d.ts'), 'utf8');
  const line = /disconnection_reason\?: ([^;]+);/.exec(declarations)![1];
  return [...line.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
}

describe('the Retell disconnection_reason table', () => {
  it('maps every reason the SDK lists, and nothing else (type-level and against the declaration file)', () => {
    expect(tableIsExact).toBe(true);
    expect(Object.keys(incomplete)).toEqual(['user_hangup']);
    expect(Object.keys(RETELL_DISCONNECTION_REASONS).sort()).toEqual(declaredReasons().sort());
  });

  it('places the reasons as the contract groups them', () => {
    const groups: Record<RetellOutcome, RetellDisconnectionReason[]> = {
      'not-connected': ['dial_no_answer', 'dial_busy', 'dial_failed', 'user_declined', 'invalid_destination'],
      voicemail: ['voicemail_reached'],
      forwarded: ['call_transfer', 'transfer_bridged'],
      'pool-full': ['concurrency_limit_reached', 'no_concurrency_fallback'],
      failed: [
        'error_llm_websocket_open',
        'error_retell',
        'error_unknown',
        'no_valid_payment',
        'telephony_provider_unavailable',
        'sip_routing_error',
        'scam_detected',
        'marked_as_spam',
        'registered_call_timeout',
      ],
      answered: [
        'user_hangup',
        'agent_hangup',
        'inactivity',
        'max_duration_reached',
        'manual_stopped',
        'call_take_over',
        'transfer_cancelled',
      ],
      ivr: ['ivr_reached'],
    };
    for (const [outcome, reasons] of Object.entries(groups)) {
      for (const reason of reasons) expect([reason, RETELL_DISCONNECTION_REASONS[reason]]).toEqual([reason, outcome]);
    }
    const everyError = Object.keys(RETELL_DISCONNECTION_REASONS).filter((r) => r.startsWith('error_'));
    expect(everyError.map((r) => retellOutcomeOf(r))).toEqual(everyError.map((): OutcomeClass => 'failed'));
  });

  it('reads a reason a newer Retell adds by its name: failures fail, anything else ends normally', () => {
    expect(retellOutcomeOf('error_new_thing')).toBe('failed');
    expect(retellOutcomeOf('sip_failed_somehow')).toBe('failed');
    expect(retellOutcomeOf('user_walked_away')).toBe('answered');
    expect(retellOutcomeOf(undefined)).toBe('answered');
  });
});
