import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { Call, CallStatus } from '../../src/modules/calls/call.entity';
import { CallsRepository, NewCall } from '../../src/modules/calls/calls.repository';
import { EndOfCallReport } from '../../src/modules/calls/voice/voice-provider';
import { openTestDataSource } from '../support/test-data-source';

/**
 * CallsRepository against real PostgreSQL: each status move is one conditional statement, so these pin what
 * it matches, what it leaves alone, and that racing moves have one winner.
 */
describe('CallsRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let calls: CallsRepository;
  const org = randomUUID();
  const world = { organizationId: org, livemode: true };

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([Call]));
    calls = new CallsRepository(dataSource);
  });
  afterAll(() => close());

  const REPORT: EndOfCallReport = {
    failed: false,
    endedReason: 'customer-ended-call',
    resultStatus: 'completed',
    durationSeconds: 42,
    recordingUrl: 'https://example.com/r.wav',
    transcript: [{ role: 'assistant', content: 'Hello', timestamp: 1 }],
  };

  function outbound(values: Partial<NewCall> = {}): Promise<Call> {
    return calls.insert(dataSource.manager, {
      id: uuidv7(),
      organizationId: org,
      status: values.scheduledAt ? 'scheduled' : 'new',
      direction: 'outbound',
      callFrom: '+15550000001',
      callTo: '+15550000002',
      platform: 'simulator',
      ...values,
    });
  }

  /** A call put straight into a status, and its timestamps moved into the past, for the state under test. */
  async function callIn(
    status: CallStatus,
    options: { ageSeconds?: number; apiCallId?: string | null; direction?: 'outbound' | 'inbound' } = {},
  ): Promise<Call> {
    const call = await outbound({ direction: options.direction ?? 'outbound' });
    await dataSource.query(
      `UPDATE calls SET status = $2, api_call_id = $3,
              dispatched_at = CASE WHEN $2 = 'processing' THEN now() - make_interval(secs => $4) END,
              updated_at = now() - make_interval(secs => $4)
        WHERE id = $1`,
      [call.id, status, options.apiCallId ?? null, options.ageSeconds ?? 0],
    );
    return (await calls.findById(call.id))!;
  }

  const statusOf = async (id: string) => (await calls.findById(id))!.status;

  describe('insert', () => {
    it('reads the call back with the columns’ defaults', async () => {
      const call = await outbound();
      expect(call).toMatchObject({ status: 'new', transcript: [], livemode: true, apiCallId: null, toolIds: [] });
      expect(call.createdAt).toBeInstanceOf(Date);
    });

    it('refuses a status no call is born in', async () => {
      await expect(outbound({ status: 'ended' })).rejects.toThrow('A call cannot start as ended');
    });
  });

  describe('claim (new|scheduled -> lock-processing)', () => {
    it('claims a due call once; a second claim gets nothing', async () => {
      const call = await outbound();
      expect((await calls.claim(call.id))?.status).toBe('lock-processing');
      expect(await calls.claim(call.id)).toBeNull();
    });

    it('leaves a call scheduled beyond the 1 s slack for later', async () => {
      const call = await outbound({ scheduledAt: new Date(Date.now() + 60_000) });
      expect(await calls.claim(call.id)).toBeNull();
      expect(await statusOf(call.id)).toBe('scheduled');
    });

    it('is exclusive under concurrency: of 10 racing claims exactly one wins', async () => {
      const call = await outbound();
      const results = await Promise.all(Array.from({ length: 10 }, () => calls.claim(call.id)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('never claims a cancelled call', async () => {
      const call = await callIn('cancelled');
      expect(await calls.claim(call.id)).toBeNull();
    });
  });

  describe('cancel (new|scheduled -> cancelled)', () => {
    it('cancels the organization’s waiting call, once', async () => {
      const call = await outbound();
      expect((await calls.cancel(dataSource.manager, world, call.id))?.status).toBe('cancelled');
      expect(await calls.cancel(dataSource.manager, world, call.id)).toBeNull();
    });

    it('matches no call of another organization', async () => {
      const call = await outbound();
      expect(
        await calls.cancel(dataSource.manager, { organizationId: randomUUID(), livemode: true }, call.id),
      ).toBeNull();
      expect(await statusOf(call.id)).toBe('new');
    });

    it('matches no call of the other world of the organization', async () => {
      const call = await outbound();
      expect(await calls.cancel(dataSource.manager, { organizationId: org, livemode: false }, call.id)).toBeNull();
      expect(await statusOf(call.id)).toBe('new');
    });

    it('loses to a claim that came first, and a claim loses to a cancel that came first', async () => {
      const claimedFirst = await outbound();
      await calls.claim(claimedFirst.id);
      expect(await calls.cancel(dataSource.manager, world, claimedFirst.id)).toBeNull();
      const cancelledFirst = await outbound();
      await calls.cancel(dataSource.manager, world, cancelledFirst.id);
      expect(await calls.claim(cancelledFirst.id)).toBeNull();
    });

    it('races a claim with exactly one winner', async () => {
      const call = await outbound();
      const [claimed, cancelled] = await Promise.all([
        calls.claim(call.id),
        calls.cancel(dataSource.manager, world, call.id),
      ]);
      expect([claimed, cancelled].filter(Boolean)).toHaveLength(1);
    });
  });

  describe('start (lock-processing -> processing)', () => {
    it('moves claimed calls and stamps dispatchedAt, leaving out calls no longer claimed', async () => {
      const claimed = await callIn('lock-processing');
      const released = await outbound();
      const started = await calls.start(dataSource.manager, [claimed.id, released.id]);
      expect(started.map((c) => c.id)).toEqual([claimed.id]);
      expect(started[0]).toMatchObject({ status: 'processing', dispatchedAt: expect.any(Date) });
      expect(await statusOf(released.id)).toBe('new');
    });
  });

  describe('requeue (lock-processing -> new|scheduled)', () => {
    it('returns claims to the waiting status their schedule says, keeping updatedAt', async () => {
      const unscheduled = await callIn('lock-processing', { ageSeconds: 10 });
      const scheduled = await outbound({ scheduledAt: new Date(Date.now() + 500) });
      await calls.claim(scheduled.id);
      const processing = await callIn('processing');
      await calls.requeue(dataSource.manager, [unscheduled.id, scheduled.id, processing.id]);
      const after = await calls.findById(unscheduled.id);
      expect(after?.status).toBe('new');
      expect(after?.updatedAt).toEqual(unscheduled.updatedAt);
      expect(await statusOf(scheduled.id)).toBe('scheduled');
      expect(await statusOf(processing.id)).toBe('processing');
    });
  });

  describe('releaseStale (lock-processing -> new|scheduled)', () => {
    it('releases only claims older than the limit and returns their ids', async () => {
      const stale = await callIn('lock-processing', { ageSeconds: 120 });
      const fresh = await callIn('lock-processing', { ageSeconds: 5 });
      const released = await calls.releaseStale(60);
      expect(released).toContain(stale.id);
      expect(released).not.toContain(fresh.id);
      expect(await statusOf(stale.id)).toBe('new');
      expect(await statusOf(fresh.id)).toBe('lock-processing');
    });
  });

  describe('failDispatch (lock-processing|processing -> error)', () => {
    it('fails claimed and just-started calls with their reasons; other calls are untouched', async () => {
      const claimed = await callIn('lock-processing');
      const processing = await callIn('processing');
      const released = await outbound();
      const failed = await calls.failDispatch(dataSource.manager, [
        { id: claimed.id, endedReason: 'do-not-call' },
        { id: processing.id, endedReason: 'outbound-minutes-exhausted' },
        { id: released.id, endedReason: 'do-not-call' },
      ]);
      expect(Object.fromEntries(failed.map((c) => [c.id, [c.status, c.endedReason, c.dispatchedAt]]))).toEqual({
        [claimed.id]: ['error', 'do-not-call', null],
        [processing.id]: ['error', 'outbound-minutes-exhausted', null],
      });
      expect(failed.every((c) => c.endedAt instanceof Date)).toBe(true);
      expect(await statusOf(released.id)).toBe('new');
    });
  });

  describe('finish (processing -> ended|error)', () => {
    it('ends a live call with the report, recording the platform id it lacked', async () => {
      const call = await callIn('processing');
      const ended = await calls.finish(dataSource.manager, call.id, 'vapi-1', REPORT);
      expect(ended).toMatchObject({
        status: 'ended',
        apiCallStatus: 'ended',
        apiCallId: 'vapi-1',
        endedReason: 'customer-ended-call',
        durationSeconds: 42,
        transcript: REPORT.transcript,
      });
    });

    it('finishing an already-finished call changes nothing', async () => {
      const call = await callIn('processing');
      const first = await calls.finish(dataSource.manager, call.id, null, REPORT);
      const again = await calls.finish(dataSource.manager, call.id, null, {
        ...REPORT,
        failed: true,
        endedReason: 'supervision-timeout',
      });
      expect(again).toBeNull();
      expect(await calls.findById(call.id)).toEqual(first);
    });

    it('a failed report ends in error; a call not yet processing is not finished', async () => {
      const live = await callIn('processing');
      expect((await calls.finish(dataSource.manager, live.id, null, { ...REPORT, failed: true }))?.status).toBe(
        'error',
      );
      const waiting = await outbound();
      expect(await calls.finish(dataSource.manager, waiting.id, null, REPORT)).toBeNull();
      expect(await statusOf(waiting.id)).toBe('new');
    });

    it('keeps a longer transcript than the report’s', async () => {
      const call = await callIn('processing');
      const lines = [
        { role: 'assistant' as const, content: 'a', timestamp: 1 },
        { role: 'user' as const, content: 'b', timestamp: 2 },
      ];
      await calls.replaceTranscripts([{ callId: call.id, messages: lines }]);
      expect((await calls.finish(dataSource.manager, call.id, null, REPORT))?.transcript).toEqual(lines);
    });

    it('finishes several calls in one statement, each with its own report, a call named twice once', async () => {
      const [a, b] = [await callIn('processing'), await callIn('processing')];
      const waiting = await outbound();
      const end = (callId: string, report = REPORT) => ({
        callId,
        providerCallId: null,
        report,
        outcome: { answeredBy: null, analysis: null },
        recovered: false,
      });
      const ended = await calls.finishMany(dataSource.manager, [
        end(a.id),
        end(b.id, { ...REPORT, failed: true, endedReason: 'pipeline-error' }),
        end(a.id, { ...REPORT, failed: true }),
        end(waiting.id),
      ]);
      expect(ended.map((c) => c && [c.id, c.status, c.endedReason])).toEqual([
        [a.id, 'ended', 'customer-ended-call'],
        [b.id, 'error', 'pipeline-error'],
        null,
        null,
      ]);
      expect(await statusOf(waiting.id)).toBe('new');
    });

    it('races with exactly one winner', async () => {
      const call = await callIn('processing');
      const results = await Promise.all(
        Array.from({ length: 5 }, () => dataSource.transaction((tx) => calls.finish(tx, call.id, null, REPORT))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('updates of a live call', () => {
    it('markStarted records the platform id once, on a live outbound call only', async () => {
      const call = await callIn('processing');
      expect(await calls.markStarted(dataSource.manager, call.id, 'p-1')).toMatchObject({
        apiCallId: 'p-1',
        apiCallStatus: 'queued',
      });
      expect(await calls.markStarted(dataSource.manager, call.id, 'p-2')).toBeNull();
      expect((await calls.findById(call.id))?.apiCallId).toBe('p-1');
      const inbound = await callIn('processing', { direction: 'inbound' });
      expect(await calls.markStarted(dataSource.manager, inbound.id, 'p-3')).toBeNull();
      const waiting = await outbound();
      expect(await calls.markStarted(dataSource.manager, waiting.id, 'p-4')).toBeNull();
    });

    it('the platform status only moves forward, and only while processing', async () => {
      const call = await callIn('processing');
      await calls.advancePlatformStatuses([{ callId: call.id, status: 'in-progress' }]);
      await calls.advancePlatformStatuses([{ callId: call.id, status: 'ringing' }]);
      expect((await calls.findById(call.id))?.apiCallStatus).toBe('in-progress');
      const ended = await callIn('ended');
      await calls.advancePlatformStatuses([{ callId: ended.id, status: 'ringing' }]);
      expect((await calls.findById(ended.id))?.apiCallStatus).toBeNull();
    });

    it('statuses written together: each call gets its furthest, never behind what it has', async () => {
      const [a, b] = [await callIn('processing'), await callIn('processing')];
      await calls.advancePlatformStatuses([{ callId: b.id, status: 'in-progress' }]);
      await calls.advancePlatformStatuses([
        { callId: a.id, status: 'in-progress' },
        { callId: a.id, status: 'ringing' },
        { callId: b.id, status: 'ringing' },
      ]);
      expect((await calls.findById(a.id))?.apiCallStatus).toBe('in-progress');
      expect((await calls.findById(b.id))?.apiCallStatus).toBe('in-progress');
    });

    it('the transcript never shrinks and a redelivered line is appended once', async () => {
      const call = await callIn('processing');
      const a = { role: 'assistant' as const, content: 'Hi', timestamp: 1 };
      const b = { role: 'user' as const, content: 'Hello', timestamp: 2 };
      await calls.replaceTranscripts([{ callId: call.id, messages: [a, b] }]);
      await calls.replaceTranscripts([{ callId: call.id, messages: [a] }]);
      await calls.appendUtterance(call.id, b);
      expect((await calls.findById(call.id))?.transcript).toEqual([a, b]);
      const c = { role: 'assistant' as const, content: 'Bye', timestamp: 3 };
      await calls.appendUtterance(call.id, c);
      await calls.appendUtterance(call.id, c);
      expect((await calls.findById(call.id))?.transcript).toEqual([a, b, c]);
    });

    it('transcripts written together: each call gets its longest, never shorter than what it has', async () => {
      const [one, two] = [await callIn('processing'), await callIn('processing')];
      const a = { role: 'assistant' as const, content: 'Hi', timestamp: 1 };
      const b = { role: 'user' as const, content: 'Hello', timestamp: 2 };
      await calls.replaceTranscripts([{ callId: two.id, messages: [a, b] }]);
      await calls.replaceTranscripts([
        { callId: one.id, messages: [a] },
        { callId: one.id, messages: [a, b] },
        { callId: two.id, messages: [a] },
      ]);
      expect((await calls.findById(one.id))?.transcript).toEqual([a, b]);
      expect((await calls.findById(two.id))?.transcript).toEqual([a, b]);
    });
  });

  describe('reads', () => {
    it('findByIds: each id answered in its place, a call named twice twice, null where there is none', async () => {
      const [a, b] = [await outbound(), await outbound()];
      const missing = randomUUID();
      const found = await calls.findByIds([b.id, missing, a.id, b.id]);
      expect(found.map((c) => c?.id ?? null)).toEqual([b.id, null, a.id, b.id]);
      expect(found[2]).toEqual(await calls.findById(a.id));
    });

    it('findDue: waiting calls past the grace period, plus the ones just released', async () => {
      const old = await callIn('new', { ageSeconds: 10 });
      const young = await outbound();
      const justReleased = await outbound();
      const later = await outbound({ scheduledAt: new Date(Date.now() + 60_000) });
      const due = await calls.findDue(3, [justReleased.id], 500);
      expect(due).toEqual(expect.arrayContaining([old.id, justReleased.id]));
      expect(due).not.toContain(young.id);
      expect(due).not.toContain(later.id);
    });

    it('findAbandoned: processing without a platform id past the limit', async () => {
      const abandoned = await callIn('processing', { ageSeconds: 120 });
      const placed = await callIn('processing', { ageSeconds: 120, apiCallId: `p-${randomUUID()}` });
      const recent = await callIn('processing', { ageSeconds: 5 });
      const found = await calls.findAbandoned(60, 500);
      expect(found).toContain(abandoned.id);
      expect(found).not.toContain(placed.id);
      expect(found).not.toContain(recent.id);
    });

    it('findOverdue: live calls dispatched longer ago than the age', async () => {
      const overdue = await callIn('processing', { ageSeconds: 600 });
      const recent = await callIn('processing', { ageSeconds: 5 });
      const found = (await calls.findOverdue(300_000, 500)).map((c) => c.id);
      expect(found).toContain(overdue.id);
      expect(found).not.toContain(recent.id);
    });

    it('findAdmissible: an organization’s due outbound waiting calls, oldest first, up to the limit', async () => {
      const own = randomUUID();
      const [third, first, second] = [
        await outbound({ organizationId: own }),
        await outbound({ organizationId: own }),
        await outbound({ organizationId: own }),
      ];
      for (const [call, age] of [
        [first, 30],
        [second, 20],
        [third, 10],
      ] as const) {
        await dataSource.query(`UPDATE calls SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, [
          call.id,
          age,
        ]);
      }
      await outbound({ organizationId: own, scheduledAt: new Date(Date.now() + 60_000) });
      await outbound({ organizationId: own, direction: 'inbound' });
      expect(await calls.findAdmissible(own, 2)).toEqual([first.id, second.id]);
    });

    it('findIdForPlatform: by the platform id first, else by our id', async () => {
      const byPlatform = await callIn('processing', { apiCallId: `p-${randomUUID()}` });
      const byOurs = await callIn('processing');
      expect(await calls.findIdForPlatform(byPlatform.apiCallId, byOurs.id)).toBe(byPlatform.id);
      expect(await calls.findIdForPlatform('unknown', byOurs.id)).toBe(byOurs.id);
      expect(await calls.findIdForPlatform(null, randomUUID())).toBeNull();
    });
  });
});
