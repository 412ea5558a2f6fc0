import type { Vapi } from '@vapi-ai/server-sdk';
import { isCallMessage, outcomeOf, resultStatusOf, toPlatformEvents, toReport } from './vapi-messages';

const call: Vapi.Call = { id: 'v', orgId: 'o', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };

describe('Vapi server messages', () => {
  it.each([
    ['voicemail', true, 'Voicemail'],
    ['customer-did-not-answer', false, 'Not Answered'],
    ['customer-busy', false, 'Not Answered'],
    ['customer-ended-call', true, 'Answered'],
    ['assistant-ended-call', false, 'Not Answered'],
    ['pipeline-error-openai-llm-failed', true, null],
    ['assistant-not-valid', false, null],
  ])('resultStatus of %s (connected %p) is %p', (reason, connected, expected) => {
    expect(resultStatusOf(reason, connected)).toBe(expected);
  });

  it('prefers the analysis structured resultStatus', () => {
    expect(
      resultStatusOf('customer-ended-call', true, { structuredData: { resultStatus: 'Callback requested' } }),
    ).toBe('Callback requested');
  });

  it('a failed call that never connected has no duration; the recording falls back to the mono url', () => {
    const report = toReport({
      type: 'end-of-call-report',
      endedReason: 'twilio-failed-to-connect-call',
      artifact: { recording: { mono: { combinedUrl: 'u' } } },
      analysis: {},
    });
    expect(report).toEqual({
      failed: true,
      endedReason: 'twilio-failed-to-connect-call',
      resultStatus: null,
      durationSeconds: null,
      recordingUrl: 'u',
      transcript: [],
      providerCost: null,
      summary: null,
      answeredBy: null,
      analysis: { summary: null, structuredData: null, success: null },
      transfer: null,
    });
  });

  it('a forwarded call reports its transfer: warm when its plan says a message first, failed when forwarding ended it', () => {
    const forwarded = (endedReason: string, mode: string) =>
      toReport({
        type: 'end-of-call-report',
        endedReason,
        destination: { type: 'number', number: '+14155550190', transferPlan: { mode } },
        analysis: {},
      } as never).transfer;
    expect(forwarded('assistant-forwarded-call', 'warm-transfer-say-message')).toEqual({
      to: '+14155550190',
      mode: 'warm',
      status: 'completed',
    });
    expect(forwarded('call.forwarding.operator-busy', 'blind-transfer')).toEqual({
      to: '+14155550190',
      mode: 'cold',
      status: 'failed',
    });
  });

  it('keeps the cost and the summary, and reports voicemail as voicemail-reached', () => {
    const report = toReport({
      ...call,
      endedReason: 'voicemail',
      startedAt: '2025-01-01T00:00:00Z',
      endedAt: '2025-01-01T00:00:20Z',
      cost: 0.12,
      analysis: { summary: 'Left a message' },
    });
    expect(report).toMatchObject({
      failed: false,
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      durationSeconds: 20,
      providerCost: 0.12,
      summary: 'Left a message',
    });
  });

  it('a call nobody answered bills no time, however long it rang', () => {
    const report = toReport({
      ...call,
      endedReason: 'customer-did-not-answer',
      startedAt: '2025-01-01T00:00:00Z',
      endedAt: '2025-01-01T00:00:30Z',
    });
    expect(report).toMatchObject({ failed: false, resultStatus: 'Not Answered', durationSeconds: 0 });
  });

  it.each([
    ['assistant-not-valid', 'failed'],
    ['call.start.error-get-assistant', 'failed'],
    ['customer-busy', 'not-connected'],
    ['voicemail', 'voicemail'],
    ['customer-ended-call', 'answered'],
    ['some-future-provider-failed', 'failed'],
    ['some-future-normal-end', 'answered'],
  ])('%s is %s', (reason, outcome) => {
    expect(outcomeOf(reason)).toBe(outcome);
  });

  it('computes the duration from startedAt/endedAt', () => {
    expect(
      toReport({
        ...call,
        endedReason: 'customer-ended-call',
        startedAt: '2025-01-01T00:00:00Z',
        endedAt: '2025-01-01T00:00:42.5Z',
      }).durationSeconds,
    ).toBe(42.5);
  });

  it('ignores partial transcripts, statuses that are not ours and message types it does not act on', () => {
    expect(
      toPlatformEvents({ type: 'transcript', call, role: 'user', transcriptType: 'partial', transcript: 'h' }, 'x'),
    ).toEqual([]);
    expect(isCallMessage({ type: 'speech-update', call, status: 'started', role: 'user' })).toBe(false);
    expect(toPlatformEvents({ type: 'status-update', call, status: 'scheduled' }, 'x')).toEqual([]);
  });
});
