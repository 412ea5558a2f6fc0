import type { Vapi } from '@vapi-ai/server-sdk';
import { createHmac } from 'node:crypto';
import type { TestApp } from '../support/test-app';
import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import type { FakeVapi } from './fake-vapi';
import { CREDENTIALS, VAPI_SECRET, VoiceOrg, ledgerRowsOf, startWithVapi, vapiCall, voiceOrg } from './voice-fixtures';

/** Vapi's figures of a call that talked for 42 s. */
const talked = (endedReason: Vapi.CallEndedReason, extra: Partial<Vapi.Call> = {}) => ({
  endedReason,
  startedAt: '2025-01-01T10:00:00.000Z',
  endedAt: '2025-01-01T10:00:42.000Z',
  cost: 0.05,
  ...extra,
});

describe('Vapi in production, against a fake as strict as Vapi', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;
  beforeAll(async () => {
    // Most calls here are left live (each test looks at one message): room for all of them in both caps.
    ({ fake, t } = await startWithVapi({ VAPI_REPORT_GRACE_MS: '300', VAPI_MAX_CONCURRENT_CALLS: '100' }));
    org = await voiceOrg(t, 1000, fake);
    await t.admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: 100 });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const placed = async (to = '+14155550123') => {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from });
    expect(res.status).toBe(201);
    const id: string = res.body.data.id;
    const { vapiCallId } = await fake.createCallFor(id);
    await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
    return { id, vapiCallId };
  };
  const apiCallStatusOf = async (id: string) => (await org.api.get(`/api/v1/calls/${id}`)).body.data.apiCallStatus;

  describe('numbers imported, not typed', () => {
    it("imports the organization's number: found in Vapi, its server pointed at us with our credential", async () => {
      const patch = fake.requests.find((r) => r.method === 'PATCH' && r.path === `/phone-number/${org.phoneNumberId}`);
      expect(patch?.body).toEqual({
        provider: 'vapi',
        // Whatever the dashboard set is cleared: Vapi then asks our server for every call (assistant-request).
        assistantId: null,
        squadId: null,
        workflowId: null,
        server: {
          url: 'https://calls.example.test/platform/vapi/events',
          credentialId: CREDENTIALS.bearer,
          timeoutSeconds: 20,
          backoffPlan: { type: 'exponential', maxRetries: 5, baseDelaySeconds: 1 },
        },
      });
      expect(fake.phoneNumbers.get(org.phoneNumberId)?.server?.url).toBe(
        'https://calls.example.test/platform/vapi/events',
      );
    });

    it('a number Vapi does not have is 422 INVALID_PHONE and is not stored', async () => {
      const res = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: '+14155559999' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVALID_PHONE');
      const { rows } = await t.db.query('SELECT 1 FROM phone_numbers WHERE number = $1', ['+14155559999']);
      expect(rows).toHaveLength(0);
    });
  });

  describe('server-message authentication', () => {
    it('accepts the Bearer credential the call names', async () => {
      const { id, vapiCallId } = await placed();
      const sent = await fake.status(vapiCallId, 'ringing');
      expect(sent.attempts).toEqual([{ status: 200, headers: { authorization: `Bearer ${VAPI_SECRET}` } }]);
      expect(await apiCallStatusOf(id)).toBe('ringing');
    });

    it('accepts an HMAC credential (x-signature over `<x-timestamp>.<raw body>`, timestamp in ms)', async () => {
      const { id, vapiCallId } = await placed();
      fake.credentials.set(CREDENTIALS.bearer, { type: 'hmac', secret: VAPI_SECRET });
      try {
        const sent = await fake.status(vapiCallId, 'ringing');
        expect(Object.keys(sent.attempts[0].headers).sort()).toEqual(['x-signature', 'x-timestamp']);
        expect(sent.attempts.map((a) => a.status)).toEqual([200]);
      } finally {
        fake.credentials.set(CREDENTIALS.bearer, { type: 'bearer', secret: VAPI_SECRET });
      }
      expect(await apiCallStatusOf(id)).toBe('ringing');
    });

    const post = (message: Vapi.ServerMessageMessage, headers: (body: string) => Record<string, string>) => {
      const body = JSON.stringify({ message });
      return fetch(`${t.baseUrl}/platform/vapi/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers(body) },
        body,
      });
    };
    const sign = (timestamp: string, body: string, secret = VAPI_SECRET) =>
      createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const seconds = (offsetS = 0) => String(Math.floor(Date.now() / 1000) + offsetS);

    it('accepts an HMAC timestamp in seconds, and the legacy X-Vapi-Secret header', async () => {
      const { id, vapiCallId } = await placed();
      const ringing = { type: 'status-update', status: 'ringing', call: vapiCall(vapiCallId, id) } as const;
      const hmac = await post(ringing, (body) => ({ 'x-timestamp': seconds(), 'x-signature': sign(seconds(), body) }));
      expect(hmac.status).toBe(200);
      const inProgress = { ...ringing, status: 'in-progress' } as const;
      expect((await post(inProgress, () => ({ 'x-vapi-secret': VAPI_SECRET }))).status).toBe(200);
      expect(await apiCallStatusOf(id)).toBe('in-progress');
    });

    it.each([
      [
        'a signature made with another secret',
        (body: string) => ({ 'x-timestamp': seconds(), 'x-signature': sign(seconds(), body, 'other') }),
      ],
      ['a signature over another body', () => ({ 'x-timestamp': seconds(), 'x-signature': sign(seconds(), '{}') })],
      [
        'a stale timestamp (301 s old)',
        (body: string) => ({ 'x-timestamp': seconds(-301), 'x-signature': sign(seconds(-301), body) }),
      ],
      [
        'a timestamp from the future (301 s ahead)',
        (body: string) => ({ 'x-timestamp': seconds(301), 'x-signature': sign(seconds(301), body) }),
      ],
      ['a wrong bearer', () => ({ authorization: 'Bearer not-the-secret' })],
      ['a wrong legacy secret', () => ({ 'x-vapi-secret': 'not-the-secret' })],
      ['no credential at all', () => ({})],
    ])('refuses %s with 401, before the body changes anything', async (_, headers) => {
      const { id, vapiCallId } = await placed();
      const res = await post({ type: 'status-update', status: 'ringing', call: vapiCall(vapiCallId, id) }, headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
      expect(await apiCallStatusOf(id)).toBe('queued');
    });
  });

  describe('nothing lost', () => {
    it('a report lost after `status-update: ended` is recovered from GET /call within the grace', async () => {
      const { id, vapiCallId } = await placed();
      const sent = await fake.end(vapiCallId, talked('customer-ended-call'), { report: { drop: true } });
      expect(sent.skipped).toBe('dropped');
      const call = await waitForCall(org, id, finished);
      expect(call).toMatchObject({
        status: 'ended',
        endedReason: 'customer-ended-call',
        resultStatus: 'Answered',
        durationSeconds: 42,
        providerCost: 0.05,
      });
      expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/call/${vapiCallId}`)).toBe(true);
      expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
      expect(await ledgerRowsOf(t, id)).toEqual([{ type: 'outbound_call', amount_mins: -1, duration_mins: 0.7 }]);
    });

    it('a report that comes after the call was recovered fills it once, without billing or firing again', async () => {
      const kase = await org.api.post('/api/v1/cases', {
        title: 'Late report',
        prompt: 'Be brief.',
        analysis: { successCriteria: 'The customer confirms.' },
      });
      expect(kase.status).toBe(201);
      const res = await org.api.post('/api/v1/calls', {
        to: '+14155550124',
        from: org.from,
        caseId: kase.body.data.id,
      });
      const id: string = res.body.data.id;
      const { vapiCallId } = await fake.createCallFor(id);
      await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
      // Vapi's record when the grace runs out: ended, its analysis and recording not done yet, its report held.
      await fake.end(vapiCallId, talked('customer-ended-call'), { report: { drop: true } });
      const recovered = await waitForCall(org, id, finished);
      expect(recovered).toMatchObject({ status: 'ended', recordingUrl: null, transcript: [], providerCost: 0.05 });

      // Vapi's analysis is done: the report comes, late; the service takes it (200) before the fake goes on.
      const messages = [
        { role: 'bot', message: 'Hello!', time: 1, endTime: 2, secondsFromStart: 1 },
        { role: 'user', message: 'Yes, confirmed.', time: 3, endTime: 4, secondsFromStart: 3 },
      ];
      const late = await fake.report(vapiCallId, {
        cost: 0.07,
        artifact: { messages, recordingUrl: 'https://storage.vapi.example/rec-1.wav' },
        analysis: { summary: 'Confirmed.', successEvaluation: 'true' },
      });
      expect(late.attempts.at(-1)?.status).toBe(200);
      const filled = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
      expect(filled).toMatchObject({
        status: 'ended',
        endedReason: 'customer-ended-call',
        durationSeconds: 42,
        recordingUrl: 'https://storage.vapi.example/rec-1.wav',
        providerCost: 0.07,
        analysis: expect.objectContaining({ success: true, summary: 'Confirmed.' }),
      });
      expect(filled.transcript).toHaveLength(2);

      // A redelivery of the report (or another one) changes nothing more.
      const again = await fake.report(vapiCallId, {
        artifact: { messages, recordingUrl: 'https://storage.vapi.example/rec-2.wav' },
      });
      expect(again.attempts.at(-1)?.status).toBe(200);
      expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.recordingUrl).toBe(
        'https://storage.vapi.example/rec-1.wav',
      );
      // Settled and announced once, when the call was recovered.
      expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
      expect(await ledgerRowsOf(t, id)).toEqual([{ type: 'outbound_call', amount_mins: -1, duration_mins: 0.7 }]);
    });

    it('a message our service failed to take is redelivered per the backoff plan', async () => {
      const { vapiCallId } = await placed();
      const previous = fake.serviceUrl;
      // The first attempt (made as the send starts) finds nothing listening, as during a restart; the plan's
      // retries reach the service again.
      fake.serviceUrl = 'http://127.0.0.1:9';
      const pending = fake.status(vapiCallId, 'ringing');
      fake.serviceUrl = previous;
      const sent = await pending;
      expect(sent.attempts[0].status).toBeNull();
      expect(sent.attempts.at(-1)?.status).toBe(200);
    });
  });

  describe('every ended reason mapped: one case per class, with its billing', () => {
    it.each([
      ['assistant-not-valid', 'error', null, null, ['call.started', 'call.failed'], []],
      ['customer-busy', 'ended', 'Not Answered', 0, ['call.started', 'call.ended'], []],
      // The default voicemail policy hangs up on the machine: no message left, nothing billed (README).
      ['voicemail', 'ended', 'Voicemail', 42, ['call.started', 'call.ended'], []],
      ['customer-ended-call', 'ended', 'Answered', 42, ['call.started', 'call.ended'], [-1]],
    ] as const)(
      '%s: %s / %s, %s s, events %j, billed %j',
      async (reason, status, resultStatus, duration, events, billed) => {
        const { id, vapiCallId } = await placed();
        await fake.end(vapiCallId, talked(reason));
        const call = await waitForCall(org, id, finished);
        expect(call).toMatchObject({
          status,
          endedReason: reason === 'voicemail' ? 'voicemail-reached' : reason,
          resultStatus,
          durationSeconds: duration,
        });
        expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(events);
        const charged = (await ledgerRowsOf(t, id)).filter((r) => r.amount_mins !== 0).map((r) => r.amount_mins);
        expect(charged).toEqual(billed);
        const { rows } = await t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [id]);
        expect(rows.map((r) => r.status)).not.toContain('reserved');
      },
    );
  });
});

describe('one Vapi account, many tenants: VAPI_MAX_CONCURRENT_CALLS', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let orgs: VoiceOrg[];
  beforeAll(async () => {
    ({ fake, t } = await startWithVapi({
      VAPI_MAX_CONCURRENT_CALLS: '2',
      SIMULATOR_RING_MS: '100',
      SIMULATOR_CALL_MS: '500',
    }));
    // A second process dispatching from the same database and queue: the pool is decided across processes.
    await t.startPeer();
    fake.concurrencyLimit = 2;
    orgs = [await voiceOrg(t, 1000, fake), await voiceOrg(t, 1000, fake)];
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('two organizations bursting on two processes: never more than 2 live at Vapi, all calls end, none in error, both served', async () => {
    const ids: string[] = [];
    const orgOf = new Map<string, string>();
    // Both bursts at once: each organization asks for twice the whole pool.
    for (let i = 0; i < 4; i++) {
      for (const org of orgs) {
        const res = await org.api.post('/api/v1/calls', { to: `+1415555020${i}`, from: org.from });
        expect(res.status).toBe(201);
        ids.push(res.body.data.id);
        orgOf.set(res.body.data.id, org.id);
      }
    }
    const servedOrder: string[] = [];
    const ended = new Set<string>();
    // Vapi ends each call it placed; every end frees a slot of the pool for the next waiting call.
    while (ended.size < ids.length) {
      const live = [...fake.calls.values()].find((c) => c.status !== 'ended');
      if (!live) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const callId = live.assistant!.metadata!.callId as string;
      servedOrder.push(orgOf.get(callId)!);
      await fake.end(live.id, talked('customer-ended-call'));
      await waitForCall({ api: orgs.find((o) => o.id === orgOf.get(callId))!.api } as VoiceOrg, callId, finished);
      ended.add(callId);
    }
    expect(fake.peakLive).toBeLessThanOrEqual(2);
    // Our pool kept within Vapi's: Vapi never had to refuse a call (no 429).
    expect(fake.createCalls().filter((r) => !r.accepted)).toHaveLength(0);
    // Dispatched once each, whichever process claimed it: one accepted POST /call per call.
    for (const id of ids) {
      const accepted = fake.createCalls().filter((r) => r.accepted && r.body?.assistant?.metadata?.callId === id);
      expect(accepted).toHaveLength(1);
    }
    for (const org of orgs) {
      const calls = await Promise.all(
        ids
          .filter((id) => orgOf.get(id) === org.id)
          .map(async (id) => (await org.api.get(`/api/v1/calls/${id}`)).body.data),
      );
      expect(calls.map((c) => c.status)).toEqual(['ended', 'ended', 'ended', 'ended']);
    }
    // Neither organization waited for the other's whole burst: the pool went round them.
    expect(new Set(servedOrder.slice(0, 2))).toEqual(new Set(orgs.map((o) => o.id)));
    for (const org of orgs) expect(servedOrder.slice(0, 4).filter((o) => o === org.id)).toHaveLength(2);
    const { rows } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'error'`);
    expect(rows[0].n).toBe(0);
  }, 120_000);

  it('test-mode calls run on the simulator beside a full pool, and take none of its slots', async () => {
    const [org] = orgs;
    const live = await Promise.all(
      ['+14155550301', '+14155550302'].map(async (to) => {
        const res = await org.api.post('/api/v1/calls', { to, from: org.from });
        return (await fake.createCallFor(res.body.data.id)).vapiCallId;
      }),
    );
    expect(fake.liveCalls()).toBe(2);
    const testKey = (await org.keyWith(['*'], { environment: 'test' })).api;
    const res = await testKey.post('/api/v1/calls', { to: '+14155550303', from: org.from });
    expect(res.status).toBe(201);
    // A test call belongs to the test world: only a test key reads it.
    const call = await waitForCall({ ...org, api: testKey }, res.body.data.id, finished);
    expect(call).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    expect(fake.createCalls().some((r) => r.body?.assistant?.metadata?.callId === call.id)).toBe(false);
    for (const vapiCallId of live) await fake.end(vapiCallId, talked('customer-ended-call'));
  });
});
