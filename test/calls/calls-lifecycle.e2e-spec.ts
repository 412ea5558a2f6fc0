import { CallEventsService } from '../../src/modules/calls/call-events.service';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, eventsOf, finished, waitForCall } from './call-fixtures';

/** Ring 50 ms (harness default); calls long enough that polling sees the transcript grow even on a busy machine. */
const CALL_MS = 1200;

describe('calls: dispatch and the simulator lifecycle', () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    t = await startTestApp({ env: { SIMULATOR_CALL_MS: String(CALL_MS) } });
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  const place = async (to: string, extra: Record<string, unknown> = {}) => {
    const res = await org.api.post('/api/v1/calls', {
      to,
      from: org.from,
      firstMessage: 'Hello {{name}}',
      variableValues: { name: 'Ada' },
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.data;
  };

  /** The call's dispatch job (its id is the call's), or undefined once removed. */
  const dispatchJob = (callId: string) => t.app.get(JobQueue).queue(QueueName.CallDispatch).getJob(callId);

  /** Waits until the call's dispatch job can no longer run: removed, or run to its end. */
  const dispatchSettled = async (callId: string) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
      const job = await dispatchJob(callId);
      if (!job || ['completed', 'failed'].includes(await job.getState())) return;
    }
    throw new Error(`the dispatch job of ${callId} never settled`);
  };

  it('answered (last digit 0-6): queued, ringing, in-progress, growing transcript, then ended with a recording', async () => {
    const created = await place('+14155550123');
    expect(created).toMatchObject({ status: 'new', apiCallId: null, durationSeconds: null, recordingUrl: null });
    const seen = new Set<string>();
    const lengthsWhileInProgress = new Set<number>();
    const done = await waitForCall(org, created.id, (c) => {
      if (c.apiCallStatus) seen.add(c.apiCallStatus);
      if (c.apiCallStatus === 'in-progress') lengthsWhileInProgress.add(c.transcript.length);
      return finished(c);
    });
    expect(done).toMatchObject({
      status: 'ended',
      apiCallStatus: 'ended',
      endedReason: 'customer-ended-call',
      resultStatus: 'Answered',
      durationSeconds: CALL_MS / 1000,
    });
    expect(done.apiCallId).toEqual(expect.any(String));
    expect(done.recordingUrl).toMatch(/^https:\/\//);
    expect(done.transcript[0]).toMatchObject({ role: 'system' });
    expect(done.transcript[1]).toMatchObject({ role: 'assistant', content: 'Hello Ada' });
    expect(done.transcript.slice(2).map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(done.transcript.every((m: any) => typeof m.timestamp === 'number')).toBe(true);
    // Seen while polling: the transcript was partial while the call was in progress.
    expect(seen.has('in-progress')).toBe(true);
    expect(Math.min(...lengthsWhileInProgress)).toBeLessThan(done.transcript.length);
    expect(lengthsWhileInProgress.size).toBeGreaterThanOrEqual(2);
    const events = await eventsOf(t, created.id);
    expect(events.map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    expect(events[1].data).toMatchObject({ id: created.id, status: 'ended', resultStatus: 'Answered' });
    expect(events[1].data).not.toHaveProperty('transcript');
    expect(events[1].data).not.toHaveProperty('systemPrompt');
  });

  it('voicemail (7): system and assistant lines, a quarter of the call time, Voicemail with a recording', async () => {
    const created = await place('+14155550127');
    const done = await waitForCall(org, created.id, finished);
    expect(done).toMatchObject({
      status: 'ended',
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      durationSeconds: CALL_MS / 4 / 1000,
    });
    expect(done.recordingUrl).toMatch(/^https:\/\//);
    expect(done.transcript.map((m: any) => m.role)).toEqual(['system', 'assistant']);
    expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });

  it('not answered (8): queued, ringing, ended; no transcript; duration 0', async () => {
    const created = await place('+14155550128');
    const seen = new Set<string>();
    const done = await waitForCall(org, created.id, (c) => {
      if (c.apiCallStatus) seen.add(c.apiCallStatus);
      return finished(c);
    });
    expect(done).toMatchObject({
      status: 'ended',
      apiCallStatus: 'ended',
      endedReason: 'customer-did-not-answer',
      resultStatus: 'Not Answered',
      durationSeconds: 0,
      recordingUrl: null,
      transcript: [],
    });
    expect(seen.has('in-progress')).toBe(false);
    expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });

  it('error (9): status error with pipeline-error, no result, no duration, one call.failed', async () => {
    const created = await place('+14155550129');
    const done = await waitForCall(org, created.id, finished);
    expect(done).toMatchObject({
      status: 'error',
      apiCallStatus: 'ended',
      endedReason: 'pipeline-error',
      resultStatus: null,
      durationSeconds: null,
      recordingUrl: null,
      transcript: [],
    });
    expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual(['call.started', 'call.failed']);
  });

  it('a scheduled call fires at scheduledAt (within a second) and fires call.scheduled on creation', async () => {
    const at = Date.now() + 2000;
    const created = await place('+14155550120', { scheduledAt: new Date(at).toISOString() });
    expect(created.status).toBe('scheduled');
    expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual(['call.scheduled']);
    // Its dispatch job waits in the delayed set until scheduledAt: nothing runs it earlier.
    const job = await dispatchJob(created.id);
    expect(await job!.getState()).toBe('delayed');
    expect(Math.abs(job!.timestamp + (job!.opts.delay ?? 0) - at)).toBeLessThan(1000);
    await waitForCall(org, created.id, (c) => c.status !== 'scheduled', 5000);
    const { rows } = await t.db.query('SELECT dispatched_at FROM calls WHERE id = $1', [created.id]);
    // Not before its time, give or take the claim's one-second allowance (how soon after is a benchmark's matter).
    expect(new Date(rows[0].dispatched_at).getTime()).toBeGreaterThanOrEqual(at - 1000);
    await waitForCall(org, created.id, finished);
    expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual([
      'call.scheduled',
      'call.started',
      'call.ended',
    ]);
  });

  it('cancelling a scheduled call makes it cancelled, removes its job and fires call.cancelled', async () => {
    const created = await place('+14155550121', { scheduledAt: new Date(Date.now() + 1500).toISOString() });
    const del = await org.api.delete(`/api/v1/calls/${created.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    // Its dispatch job is gone: nothing is left to dispatch it.
    expect(await dispatchJob(created.id)).toBeUndefined();
    const after = (await org.api.get(`/api/v1/calls/${created.id}`)).body.data;
    expect(after).toMatchObject({ status: 'cancelled', apiCallId: null });
    expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual(['call.scheduled', 'call.cancelled']);
  });

  it('cancelling twice, or after dispatch, is 422 INVALID_STATE and changes nothing', async () => {
    const scheduled = await place('+14155550122', { scheduledAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await org.api.delete(`/api/v1/calls/${scheduled.id}`)).status).toBe(204);
    const again = await org.api.delete(`/api/v1/calls/${scheduled.id}`);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_STATE');

    const immediate = await place('+14155550124');
    const done = await waitForCall(org, immediate.id, finished);
    const late = await org.api.delete(`/api/v1/calls/${immediate.id}`);
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('INVALID_STATE');
    expect((await org.api.get(`/api/v1/calls/${immediate.id}`)).body.data.status).toBe(done.status);
  });

  it('an immediate call cancelled before pickup is never dispatched', async () => {
    // Created and cancelled inside one burst: either the cancel wins (204, never dispatched) or the claim does (422).
    const created = await place('+14155550125');
    const del = await org.api.delete(`/api/v1/calls/${created.id}`);
    await dispatchSettled(created.id);
    const after = (await org.api.get(`/api/v1/calls/${created.id}`)).body.data;
    if (del.status === 204) {
      expect(after).toMatchObject({ status: 'cancelled', apiCallId: null });
      expect((await eventsOf(t, created.id)).map((e) => e.type)).toEqual(['call.cancelled']);
    } else {
      expect(del.status).toBe(422);
      expect(after.status).not.toBe('cancelled');
    }
  });

  it('every finished call has exactly one terminal event, even when platform events are replayed', async () => {
    const ids: string[] = [];
    for (const to of ['+14155550130', '+14155550137', '+14155550138', '+14155550139']) ids.push((await place(to)).id);
    for (const id of ids) await waitForCall(org, id, finished);
    // Replay every end-of-call report through the queue, as a platform resending its webhooks would.
    const { rows } = await t.db.query('SELECT id, api_call_id FROM calls WHERE id = ANY($1)', [ids]);
    const events = t.app.get(CallEventsService);
    for (const row of rows) {
      await events.apply({ kind: 'status', callId: row.id, providerCallId: row.api_call_id, status: 'ringing' });
      await events.apply({
        kind: 'end-of-call',
        callId: row.id,
        providerCallId: row.api_call_id,
        report: {
          failed: true,
          endedReason: 'late',
          resultStatus: null,
          durationSeconds: 1,
          recordingUrl: null,
          transcript: [],
        },
      });
    }
    for (const id of ids) {
      const types = (await eventsOf(t, id)).map((e) => e.type);
      expect(types.filter((x) => x === 'call.ended' || x === 'call.failed')).toHaveLength(1);
      expect(types.filter((x) => x === 'call.started')).toHaveLength(1);
      const call = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
      expect(call.endedReason).not.toBe('late');
      expect(call.apiCallStatus).toBe('ended');
    }
  });
});
