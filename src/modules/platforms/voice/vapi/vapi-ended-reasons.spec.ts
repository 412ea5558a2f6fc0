import { Vapi } from '@vapi-ai/server-sdk';
import type { OutcomeClass } from '../../../calls/voice/voice-provider';
import { VAPI_ENDED_REASONS } from './vapi-ended-reasons';

type Mapped = keyof typeof VAPI_ENDED_REASONS;
/** true only when the table's keys are exactly the SDK's endedReason union (checked by `npm run typecheck`). */
type SameKeys = [Vapi.CallEndedReason] extends [Mapped]
  ? [Mapped] extends [Vapi.CallEndedReason]
    ? true
    : false
  : false;
const tableIsExact: SameKeys = true;

// A table that leaves a reason out does not compile: this is what an SDK release adding a reason runs into.
// @ts-expect-error missing every reason but one
const incomplete: Record<Vapi.CallEndedReason, OutcomeClass> = { voicemail: 'voicemail' };

describe('the Vapi ended-reason table', () => {
  it('maps every endedReason the SDK lists, and nothing else (type-level and at run time)', () => {
    expect(tableIsExact).toBe(true);
    expect(Object.keys(incomplete)).toEqual(['voicemail']);
    expect(Object.keys(VAPI_ENDED_REASONS).sort()).toEqual(Object.values(Vapi.CallEndedReason).sort());
  });

  it('places the reasons the contract names in their classes', () => {
    expect(VAPI_ENDED_REASONS).toMatchObject({
      'assistant-not-valid': 'failed',
      'twilio-failed-to-connect-call': 'failed',
      'pipeline-error-openai-llm-failed': 'failed',
      'customer-busy': 'not-connected',
      'customer-did-not-answer': 'not-connected',
      voicemail: 'voicemail',
      'customer-ended-call': 'answered',
    });
  });
});
