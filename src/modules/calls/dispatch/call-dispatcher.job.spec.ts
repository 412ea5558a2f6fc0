import { Logger } from '@nestjs/common';
import type { Tx } from '../../../infra/database/tx';
import type { LedgerReservationResult, Metrics } from '../../../infra/metrics/metrics';
import { FakeDataSource } from '../../../infra/testing/fake-data-source';
import { fakeOf } from '../../../infra/testing/fake-of';
import { freezeClock, thawClock } from '../../../infra/testing/frozen-clock';
import { DestinationPolicyService } from '../../destinations/destination-policy.service';
import { DEFAULT_DESTINATION_RULES } from '../../destinations/destination-rules';
import { DestinationRulesRepository } from '../../destinations/destination-rules.repository';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import { CallAdmission } from '../../limits/call-admission';
import type { PendingEvent } from '../../outbox/outbox.service';
import { OutboxService } from '../../outbox/outbox.service';
import { CallBilling, DispatchReservation } from '../../usage/call-billing.port';
import type { Call } from '../call.entity';
import { CallEventsService } from '../call-events.service';
import type { EndOfCallReport } from '../voice/voice-provider';
import { PlaceCallResult, VoiceProvider } from '../voice/voice-provider';
import { VoicePlatforms } from '../voice/voice-platforms';
import { InMemoryCalls } from '../testing/in-memory-calls';
import { placementWithoutFallbacks } from '../testing/no-fallbacks';
import { CallDispatcherJob } from './call-dispatcher.job';
import { CallDispatchQueue } from './call-dispatch-queue';

const NOW = '2026-03-04T12:00:00.000Z';

describe('CallDispatcherJob', () => {
  let store: InMemoryCalls;
  let db: FakeDataSource;
  /** Outbound slots of the organization (live calls beside the ones being admitted count against it). */
  let maxLive: number;
  let poolFree: number;
  /** Minutes left to reserve (live calls only). */
  let minutes: number;
  let plan: boolean;
  let listed: Array<{ livemode: boolean; number: string }>;
  /** The platform's answer per call when it is not `placed`: a refusal result, or an error it throws. */
  let voiceFails: Map<string, Exclude<PlaceCallResult, { kind: 'placed' }> | Error>;
  let placed: string[];
  let started: Array<[string, string]>;
  let finished: Array<[string, EndOfCallReport]>;
  let outboxed: PendingEvent[];
  let released: string[];
  let retries: Array<[string, Date]>;
  let reservations: LedgerReservationResult[];
  let deferredCount: number;
  let latencies: number[];

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    freezeClock(NOW);
    store = new InMemoryCalls();
    db = new FakeDataSource();
    maxLive = 10;
    poolFree = Infinity;
    minutes = 100;
    plan = true;
    listed = [];
    voiceFails = new Map();
    placed = [];
    started = [];
    finished = [];
    outboxed = [];
    released = [];
    retries = [];
    reservations = [];
    deferredCount = 0;
    latencies = [];
  });
  afterEach(thawClock);

  const processing = () => [...store.calls.values()].filter((c) => c.status === 'processing').length;

  const job = () =>
    new CallDispatcherJob(
      db.asDataSource(),
      store.repository(),
      fakeOf<OutboxService>({
        recordMany: (_tx: Tx, events: readonly PendingEvent[]) => {
          outboxed.push(...events);
          return Promise.resolve(events.map((_, i) => `event-${i}`));
        },
      }),
      fakeOf<CallBilling>({
        reserveForDispatch: (_tx, _org, callIds) => {
          const outcomes = new Map<string, DispatchReservation>();
          for (const id of callIds) {
            if (!plan) outcomes.set(id, { reserved: false, reason: 'OUTBOUND_PLAN_REQUIRED' });
            else if (minutes > 0) {
              minutes--;
              outcomes.set(id, { reserved: true });
            } else outcomes.set(id, { reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' });
          }
          return Promise.resolve(outcomes);
        },
        releaseDeferred: (_org, callId) => {
          released.push(callId);
          return Promise.resolve();
        },
      }),
      placementWithoutFallbacks(
        fakeOf<VoicePlatforms>({
          of: () =>
            fakeOf<VoiceProvider>({
              // A platform that cannot be searched for a call (the simulator's kind).
              findPlaced: undefined,
              placeCall: (call: Call) => {
                const failure = voiceFails.get(call.id);
                if (failure instanceof Error) return Promise.reject(failure);
                if (failure) return Promise.resolve(failure);
                placed.push(call.id);
                return Promise.resolve({ kind: 'placed' as const, providerCallId: `provider-${call.id}` });
              },
            }),
        }),
        { platformPlacements: { inc: () => undefined } as unknown as Metrics['platformPlacements'] },
      ),
      fakeOf<CallEventsService>({
        started: (callId, providerCallId) => {
          started.push([callId, providerCallId]);
          return Promise.resolve();
        },
        finish: (callId, _provider, report) => {
          finished.push([callId, report]);
          return Promise.resolve();
        },
      }),
      fakeOf<Metrics>({
        ledgerReservation: (result) => void reservations.push(result),
        voicePlatformDeferred: { inc: () => void deferredCount++ } as Metrics['voicePlatformDeferred'],
        dispatchLatency: { observe: (s: number) => void latencies.push(s) } as unknown as Metrics['dispatchLatency'],
      }),
      fakeOf<CallAdmission>({
        lockFreeOutboundSlots: () => Promise.resolve(Math.max(0, maxLive - processing())),
        lockFreePoolSlots: () => Promise.resolve(poolFree),
      }),
      fakeOf<DoNotCallService>({
        listedAmong: (_tx, world, numbers) =>
          Promise.resolve(
            new Set(numbers.filter((n) => listed.some((l) => l.number === n && l.livemode === world.livemode))),
          ),
      }),
      // The real policy over the default rules: premium-rate and satellite ranges refused.
      new DestinationPolicyService(
        fakeOf<DestinationRulesRepository>({ find: () => Promise.resolve(DEFAULT_DESTINATION_RULES) }),
      ),
      fakeOf<CallDispatchQueue>({
        enqueueRetry: (callId, at) => {
          retries.push([callId, at]);
          return Promise.resolve();
        },
      }),
    );

  /** Dispatches the calls as concurrent jobs of one worker would: the first alone, the rest batched. */
  const dispatch = async (dispatcher: CallDispatcherJob, ...calls: Call[]) => {
    await Promise.all(calls.map((c) => dispatcher.dispatch({ callId: c.id })));
  };

  describe('the claim', () => {
    it('dispatches a call once however many jobs name it', async () => {
      const call = store.add();
      const dispatcher = job();
      await dispatch(dispatcher, call, call, call);
      await dispatch(job(), call);
      expect(placed).toEqual([call.id]);
      expect(store.get(call.id)).toMatchObject({ status: 'processing', dispatchedAt: new Date(NOW) });
    });

    it('places a call named twice in one claim batch once (its own job and a retry job due together)', async () => {
      const first = store.add();
      const live = store.add();
      const test = store.add({ livemode: false });
      // `first` is claimed alone; both jobs of each other call wait for it and are claimed in one statement.
      await dispatch(job(), first, live, test, live, test);
      // Each once; the order of distinct calls placed together is not promised (a live call looks its number's
      // fallback up before it is placed, a test-mode call has none).
      expect([...placed].sort()).toEqual([first.id, live.id, test.id].sort());
      expect(minutes).toBe(98);
    });

    it('leaves a cancelled call, a call scheduled later and one held back by the platform', async () => {
      const cancelled = store.add({ status: 'cancelled' });
      const later = store.add({ status: 'scheduled', scheduledAt: new Date(Date.parse(NOW) + 60_000) });
      const heldBack = store.add({ retryAt: new Date(Date.parse(NOW) + 60_000) });
      await dispatch(job(), cancelled, later, heldBack);
      expect(placed).toEqual([]);
      expect([cancelled, later, heldBack].map((c) => store.get(c.id).status)).toEqual([
        'cancelled',
        'scheduled',
        'new',
      ]);
      expect(db.transactions).toEqual([]);
    });

    it('takes a scheduled call within a second of its time', async () => {
      const call = store.add({ status: 'scheduled', scheduledAt: new Date(Date.parse(NOW) + 900) });
      await dispatch(job(), call);
      expect(placed).toEqual([call.id]);
    });
  });

  describe('the start', () => {
    it('reserves a live call its minute, hands it to the platform and records it started', async () => {
      const call = store.add({ createdAt: new Date(Date.parse(NOW) - 2500) });
      await dispatch(job(), call);
      expect(reservations).toEqual(['reserved']);
      expect(started).toEqual([[call.id, `provider-${call.id}`]]);
      expect(latencies).toEqual([2.5]);
      expect(db.transactions.map((t) => t.outcome)).toEqual(['committed']);
    });

    it('reserves nothing for a test-mode call: it is free', async () => {
      minutes = 0;
      const call = store.add({ livemode: false });
      await dispatch(job(), call);
      expect(reservations).toEqual([]);
      expect(placed).toEqual([call.id]);
    });

    it('ends a live call without a minute or a plan in error, with its reason and a call.failed event', async () => {
      minutes = 0;
      const noMinute = store.add();
      await dispatch(job(), noMinute);
      plan = false;
      const noPlan = store.add();
      await dispatch(job(), noPlan);
      expect(store.get(noMinute.id)).toMatchObject({ status: 'error', endedReason: 'outbound-minutes-exhausted' });
      expect(store.get(noPlan.id)).toMatchObject({ status: 'error', endedReason: 'outbound-plan-required' });
      expect(reservations).toEqual(['outbound_minutes_exhausted', 'outbound_plan_required']);
      expect(outboxed.map((e) => [e.type, (e.payload as { callId: string }).callId])).toEqual([
        ['call.failed', noMinute.id],
        ['call.failed', noPlan.id],
      ]);
      expect(placed).toEqual([]);
    });
  });

  describe('admission', () => {
    it("refuses a call to a number on its world's do-not-call list, and only its world's", async () => {
      const live = store.add({ callTo: '+14155559999' });
      const test = store.add({ callTo: '+14155559999', livemode: false });
      listed = [{ livemode: false, number: '+14155559999' }];
      await dispatch(job(), live, test);
      expect(store.get(test.id)).toMatchObject({ status: 'error', endedReason: 'do-not-call' });
      expect(store.get(live.id).status).toBe('processing');
      expect(outboxed.map((e) => e.type)).toEqual(['call.failed']);
    });

    it('refuses a call to a number the destination rules refuse now, in either world, and places the rest', async () => {
      const premium = store.add({ callTo: '+19005550100' });
      const satellite = store.add({ callTo: '+881612345678', livemode: false });
      const fine = store.add({ callTo: '+14155559999' });
      await dispatch(job(), premium, satellite, fine);
      expect(store.get(premium.id)).toMatchObject({ status: 'error', endedReason: 'destination-not-allowed' });
      expect(store.get(satellite.id)).toMatchObject({ status: 'error', endedReason: 'destination-not-allowed' });
      expect(placed).toEqual([fine.id]);
    });

    it('gives back the minute of a call the platform had deferred when it is refused now', async () => {
      const call = store.add({ callTo: '+14155559999', retryAt: new Date(Date.parse(NOW) - 1000) });
      listed = [{ livemode: true, number: '+14155559999' }];
      await dispatch(job(), call);
      expect(released).toEqual([call.id]);
    });

    it('admits the oldest calls up to the free slots and returns the rest to waiting', async () => {
      maxLive = 2;
      const first = store.add({ createdAt: new Date(Date.parse(NOW) - 5000) });
      const newest = store.add({ createdAt: new Date(Date.parse(NOW) - 1000) });
      const scheduled = store.add({ status: 'scheduled', scheduledAt: new Date(Date.parse(NOW) - 3000) });
      const oldest = store.add({ createdAt: new Date(Date.parse(NOW) - 9000) });
      // `first` runs alone; the other three are claimed together while it does.
      await dispatch(job(), first, newest, scheduled, oldest);
      expect(placed).toEqual([first.id, oldest.id]);
      expect([newest, scheduled].map((c) => store.get(c.id).status)).toEqual(['new', 'scheduled']);
      // Waiting calls were not reserved: only admitted live calls take a minute.
      expect(minutes).toBe(98);
    });

    it("needs a slot of the platform's shared pool for a live call, never for a test call", async () => {
      poolFree = 0;
      const live = store.add();
      const test = store.add({ livemode: false });
      await dispatch(job(), live, test);
      expect(placed).toEqual([test.id]);
      expect(store.get(live.id).status).toBe('new');
    });
  });

  describe("the platform's answer", () => {
    it('defers a call the platform cannot take yet: back to waiting, a retry due after its Retry-After', async () => {
      const call = store.add();
      voiceFails.set(call.id, { kind: 'deferred', reason: 'pool full', retryAfterMs: 30_000 });
      await dispatch(job(), call);
      const retryAt = new Date(Date.parse(NOW) + 30_000);
      expect(store.get(call.id)).toMatchObject({ status: 'new', retryAt, dispatchedAt: null });
      expect(retries).toEqual([[call.id, retryAt]]);
      expect(deferredCount).toBe(1);
      expect(started).toEqual([]);
    });

    it('enqueues no retry when the call moved on meanwhile (the defer matched no row)', async () => {
      const call = store.add({ apiCallId: 'already-placed' });
      voiceFails.set(call.id, { kind: 'deferred', reason: 'pool full', retryAfterMs: 30_000 });
      await dispatch(job(), call);
      expect(retries).toEqual([]);
      expect(deferredCount).toBe(0);
    });

    it('a call whose platform is unavailable waits (no fallback): its attempt kept, a retry after the backoff', async () => {
      const call = store.add({ platform: 'vapi' });
      voiceFails.set(call.id, { kind: 'rejected', endedReason: 'vapi-unavailable: fetch failed', unavailable: true });
      await dispatch(job(), call);
      const retryAt = new Date(Date.parse(NOW) + 5_000);
      expect(store.get(call.id)).toMatchObject({ status: 'new', retryAt, unconfirmedPlacementAt: null });
      expect(store.get(call.id).platformAttempts).toEqual([
        { platform: 'vapi', at: NOW, error: 'vapi-unavailable: fetch failed' },
      ]);
      expect(retries).toEqual([[call.id, retryAt]]);
      expect(finished).toEqual([]);
      // The second attempt waits twice as long; the third (PLATFORM_WAIT_MAX_ATTEMPTS here) ends it in error.
      freezeClock(retryAt.toISOString());
      await dispatch(job(), store.get(call.id));
      const second = new Date(retryAt.getTime() + 10_000);
      expect(retries.at(-1)).toEqual([call.id, second]);
      freezeClock(second.toISOString());
      await dispatch(job(), store.get(call.id));
      expect(finished.map(([id, r]) => [id, r.endedReason, r.failed])).toEqual([
        [call.id, 'vapi-unavailable: fetch failed', true],
      ]);
    });

    it('an attempt that may have placed the call, on a platform that cannot be searched, is never repeated', async () => {
      const call = store.add({ platform: 'vapi' });
      const failure = { kind: 'rejected' as const, endedReason: 'vapi-unavailable: 500', unavailable: true };
      voiceFails.set(call.id, { ...failure, uncertain: true });
      await dispatch(job(), call);
      expect(retries).toEqual([]);
      expect(finished.map(([id, r]) => [id, r.endedReason])).toEqual([[call.id, 'vapi-unavailable: 500']]);
    });

    it("ends a refused call with the platform's reason, or pipeline-error on any other failure", async () => {
      const rejected = store.add();
      const broken = store.add();
      voiceFails.set(rejected.id, { kind: 'rejected', endedReason: 'twilio-failed-to-connect-call' });
      voiceFails.set(broken.id, new Error('socket hang up'));
      await dispatch(job(), rejected);
      await dispatch(job(), broken);
      expect(finished.map(([id, r]) => [id, r.endedReason, r.failed])).toEqual([
        [rejected.id, 'twilio-failed-to-connect-call', true],
        [broken.id, 'pipeline-error', true],
      ]);
    });
  });
});
