import { fakeOf } from '../../../infra/testing/fake-of';
import { freezeClock, thawClock } from '../../../infra/testing/frozen-clock';
import type { Call } from '../call.entity';
import type { CallEventsService } from '../call-events.service';
import type { CallsRepository } from '../calls.repository';
import type { CallDispatchQueue } from '../dispatch/call-dispatch-queue';
import type { InboundCallsService } from '../inbound/inbound-calls.service';
import type { CallReportRecoveryJob } from '../supervision/call-report-recovery.job';
import type { ToolCallsService } from '../tool-calls.service';
import { PIPELINE_ERROR_REPORT } from './voice-provider';
import { VoiceIngressApplier } from './voice-ingress-applier';

const base = { callId: '0190a000-0000-7000-8000-000000000001', providerCallId: 'platform-call-1' };

/** The applier with the collaborators a case gives; any other one it touches throws. */
function applier(given: {
  events?: Partial<CallEventsService>;
  calls?: Partial<CallsRepository>;
  reports?: Partial<CallReportRecoveryJob>;
  dispatchQueue?: Partial<CallDispatchQueue>;
  toolCalls?: Partial<ToolCallsService>;
  inbound?: Partial<InboundCallsService>;
}) {
  return new VoiceIngressApplier(
    fakeOf<CallEventsService>(given.events, 'events'),
    fakeOf<CallsRepository>(given.calls, 'calls'),
    fakeOf<CallReportRecoveryJob>(given.reports, 'reports'),
    fakeOf<CallDispatchQueue>(given.dispatchQueue, 'dispatchQueue'),
    fakeOf<ToolCallsService>(given.toolCalls, 'toolCalls'),
    fakeOf<InboundCallsService>(given.inbound, 'inbound'),
  );
}

describe('VoiceIngressApplier: each ingress event reaches the rule that owns it', () => {
  afterEach(thawClock);

  it("hands the platform's reports of the call itself to CallEventsService.apply, unchanged", async () => {
    const apply = jest.fn().mockResolvedValue(undefined);
    const events = [
      { ...base, kind: 'status', status: 'in-progress' },
      { ...base, kind: 'end-of-call', report: PIPELINE_ERROR_REPORT },
    ] as const;
    for (const event of events) await applier({ events: { apply } }).apply(event);
    expect(apply.mock.calls).toEqual(events.map((event) => [event]));
  });

  it('records a started call once through CallEventsService.started', async () => {
    const started = jest.fn().mockResolvedValue(undefined);
    await applier({ events: { started } }).apply({ ...base, kind: 'started' });
    expect(started).toHaveBeenCalledWith(base.callId, base.providerCallId);
  });

  it('waits for an expected report for its grace, then asks the platform (CallReportRecoveryJob)', async () => {
    const expectReport = jest.fn().mockResolvedValue(undefined);
    await applier({ reports: { expectReport } }).apply({ ...base, kind: 'report-expected', graceMs: 15_000 });
    expect(expectReport).toHaveBeenCalledWith(base.callId, 15_000);
  });

  it("puts a deferred call back to wait, blocking the platform's attempt, and dispatches it again after the delay", async () => {
    const now = freezeClock('2026-12-02T06:00:00.000Z');
    const retryAt = new Date(now.getTime() + 30_000);
    const defer = jest.fn().mockResolvedValue(true);
    const enqueueRetry = jest.fn().mockResolvedValue(undefined);
    await applier({ calls: { defer }, dispatchQueue: { enqueueRetry } }).apply({
      ...base,
      kind: 'deferred',
      retryAfterMs: 30_000,
    });
    expect(defer).toHaveBeenCalledWith(base.callId, retryAt, base.providerCallId);
    expect(enqueueRetry).toHaveBeenCalledWith(base.callId, retryAt);
  });

  it('does not dispatch again a deferred call that had already left processing', async () => {
    freezeClock('2026-12-02T06:00:00.000Z');
    const enqueueRetry = jest.fn();
    await applier({ calls: { defer: jest.fn().mockResolvedValue(false) }, dispatchQueue: { enqueueRetry } }).apply({
      ...base,
      kind: 'deferred',
      retryAfterMs: 30_000,
    });
    expect(enqueueRetry).not.toHaveBeenCalled();
  });

  it('fills a late analysis through CallEventsService.lateAnalysis', async () => {
    const lateAnalysis = jest.fn().mockResolvedValue(undefined);
    const analysis = { summary: 'Booked for Friday', success: true };
    await applier({ events: { lateAnalysis } }).apply({ ...base, kind: 'late-analysis', analysis });
    expect(lateAnalysis).toHaveBeenCalledWith(base.callId, analysis);
  });

  it('answers tools of an unknown call through ToolCallsService, which refuses each', async () => {
    const run = jest.fn().mockResolvedValue([{ toolCallId: 't1', result: 'failed' }]);
    const invocations = [{ toolCallId: 't1', name: 'book', arguments: null }];
    const replies = await applier({ toolCalls: { run } }).runTools(null, invocations);
    expect(run).toHaveBeenCalledWith('', invocations);
    expect(replies).toEqual([{ toolCallId: 't1', result: 'failed' }]);
  });

  it("answers the ingress's requests from the calls domain: the call, its script, inbound calls and scripts", async () => {
    const call = { id: base.callId } as Call;
    const script = { organizationId: 'org-1', systemPrompt: 'Hello', firstMessage: 'Hi' };
    const input = { to: '+14155550100', from: '+14155550177', providerCallId: 'p-9', platform: 'retell' } as const;
    const ingress = applier({
      events: { findCallId: (providerCallId, ours) => Promise.resolve(providerCallId === 'p-1' ? ours : null) },
      calls: {
        findById: (id) => Promise.resolve(id === base.callId ? call : null),
        findScript: (id) => Promise.resolve(id === base.callId ? call : null),
      },
      inbound: {
        start: (given) => Promise.resolve(given === input ? call : null),
        answerScript: (to) => Promise.resolve(to === input.to ? script : null),
      },
    });
    expect(await ingress.findCallId('p-1', base.callId)).toBe(base.callId);
    expect(await ingress.findCall(base.callId)).toBe(call);
    expect(await ingress.findScript(base.callId)).toBe(call);
    expect(await ingress.startInbound(input)).toBe(call);
    expect(await ingress.inboundScript(input.to)).toBe(script);
    expect(await ingress.inboundScript('+14155550009')).toBeNull();
  });
});
