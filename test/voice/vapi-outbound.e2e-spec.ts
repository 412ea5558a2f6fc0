import { Liquid } from 'liquidjs';
import type { Vapi } from '@vapi-ai/server-sdk';
import type { TestApp } from '../support/test-app';
import { eventsOf, finished, insertAssistant, insertCase, insertContact, waitForCall } from '../calls/call-fixtures';
import { FakeVapi } from './fake-vapi';
import { captured as capturedCreateCall } from './fixtures/create-call.fixture';
import { VAPI_WIRE, expectCapturedFixture } from '../support/captured-fixture';
import {
  CREDENTIALS,
  VoiceOrg,
  ledgerRowsOf,
  serverMessage,
  startWithVapi,
  vapiCall,
  vapiLine,
  voiceOrg,
} from './voice-fixtures';

describe('voice platform: Vapi outbound calls through a fake Vapi', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;
  beforeAll(async () => {
    // A call Vapi failed to place waits 200 ms before its next attempt (PLATFORM_WAIT_RETRY_MS).
    ({ fake, t } = await startWithVapi({ PLATFORM_WAIT_RETRY_MS: '200' }));
    org = await voiceOrg(t, 1000, fake);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const placed = async (body: Record<string, unknown> = {}) => {
    const res = await org.api.post('/api/v1/calls', { to: '+14155550123', from: org.from, ...body });
    expect(res.status).toBe(201);
    const id: string = res.body.data.id;
    const { request, vapiCallId } = await fake.createCallFor(id);
    await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
    return { id, request, vapiCallId };
  };

  const endOfCallReport = (
    vapiCallId: string,
    callId: string,
    over: Partial<Vapi.ServerMessageEndOfCallReport> = {},
  ): Vapi.ServerMessageEndOfCallReport => ({
    type: 'end-of-call-report',
    endedReason: 'customer-ended-call',
    call: vapiCall(vapiCallId, callId),
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: '2025-01-01T10:01:30.000Z',
    artifact: {
      recordingUrl: `https://storage.vapi.ai/${vapiCallId}-mono.wav`,
      transcript: 'AI: Hello Ada\nUser: Hi',
      messages: [
        vapiLine('system', 'resolved prompt', 1735725600000),
        vapiLine('bot', 'Hello Ada', 1735725601000, 1),
        { role: 'tool_calls', toolCalls: [], message: '', time: 1735725601500, secondsFromStart: 1.5 },
        vapiLine('user', 'Hi', 1735725602000, 2),
      ],
    },
    analysis: { summary: 'Short call' },
    ...over,
  });

  it("sends the rendered texts as Liquid that Vapi's engine prints unchanged (a name cannot expand there)", async () => {
    const caseId = await insertCase(t, org, { firstMessage: 'Hello {{name}}', prompt: 'Talk to {{name}}' });
    const name = '{% for i in (1..100000) %}{{ customer.number }}{% endfor %}';
    const contactId = await insertContact(org, { title: name, phone: '+14155550112' });
    const { id, request } = await placed({ caseId, contactId });
    const assistant = request.body!.assistant!;
    // Our rendering filled in the name once; every Liquid opening it brought is printed literally by Vapi.
    const escaped = '{{ "{%" }} for i in (1..100000) %}{{ "{{" }} customer.number }}{{ "{%" }} endfor %}';
    expect(assistant.firstMessage).toBe(`Hello ${escaped}`);
    expect(assistant.model?.messages).toEqual([{ role: 'system', content: `Talk to ${escaped}` }]);
    // Rendered by Liquid as Vapi does (its variables at hand), it is our text again, expanded nowhere.
    const liquid = new Liquid();
    const vapiVariables = { name: 'Ada', customer: { number: '+14155550112' } };
    expect(liquid.parseAndRenderSync(assistant.firstMessage!, vapiVariables)).toBe(`Hello ${name}`);
    // Our own record keeps the text as rendered.
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.firstMessage).toBe(`Hello ${name}`);
  });

  it('places the call with the exact Vapi request body, follows its messages, and ends it', async () => {
    const assistantId = await insertAssistant(org, {
      voice: { provider: '11labs', voiceId: 'burt', stability: 0.5 },
      model: { provider: 'openai', model: 'gpt-4o', temperature: 0.3 },
      transcriber: { provider: 'deepgram', model: 'nova-3', language: 'de' },
      dialKeypadFunctionEnabled: true,
      backchannelingEnabled: false,
    });
    const caseId = await insertCase(t, org, {
      firstMessage: 'Hi {{name}}, about {{topic}}',
      prompt: 'Call {{name}} about {{topic}}',
      variables: [{ name: 'topic', source: 'custom', defaultValue: 'your order' }],
    });
    const contactId = await insertContact(org, { title: 'Ada', phone: '+14155550111' });
    const { id, request, vapiCallId } = await placed({ caseId, contactId, assistantConfigId: assistantId });

    expect(request.headers.authorization).toBe('Bearer test-vapi-key');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      phoneNumberId: org.phoneNumberId,
      customer: { number: '+14155550123' },
      assistant: {
        firstMessage: 'Hi Ada, about your order',
        model: {
          provider: 'openai',
          model: 'gpt-4o',
          temperature: 0.3,
          messages: [{ role: 'system', content: 'Call Ada about your order' }],
          tools: [{ type: 'dtmf' }],
        },
        voice: { provider: '11labs', voiceId: 'burt', stability: 0.5 },
        transcriber: { provider: 'deepgram', model: 'nova-3', language: 'de' },
        backgroundSpeechDenoisingPlan: { smartDenoisingPlan: { enabled: true } },
        maxDurationSeconds: 3600,
        metadata: { callId: id },
        server: {
          url: 'https://calls.example.test/platform/vapi/events',
          credentialId: CREDENTIALS.bearer,
          timeoutSeconds: 20,
          backoffPlan: { type: 'exponential', maxRetries: 5, baseDelaySeconds: 1 },
        },
        serverMessages: [
          'end-of-call-report',
          'status-update',
          'conversation-update',
          'transcript[transcriptType="final"]',
        ],
        // The default voicemail policy (docs/tools.md): detect answering machines, hang up on them.
        voicemailDetection: { provider: 'vapi' },
      },
      assistantOverrides: { variableValues: { name: 'Ada', topic: 'your order' } },
    });
    // The same body, committed with our ids masked, is what tsc checks against Vapi.CreateCallDto.
    const masked = { ...request.body, phoneNumberId: 'pn-1', assistant: { ...request.body!.assistant, metadata: {} } };
    await expectCapturedFixture(
      `${__dirname}/fixtures/create-call.fixture.ts`,
      VAPI_WIRE('CreateCallDto'),
      capturedCreateCall,
      masked,
    );

    // From here on the fake Vapi speaks, as the call's server settings ask (Bearer credential).
    const call = fake.calls.get(vapiCallId)!;
    for (const status of ['ringing', 'in-progress'] as const) {
      const sent = await fake.status(vapiCallId, status);
      expect(sent.attempts.map((a) => a.status)).toEqual([200]);
      expect(sent.attempts[0].headers.authorization).toBe('Bearer test-vapi-secret');
    }
    await fake.send(vapiCallId, {
      type: 'conversation-update',
      call,
      messages: [vapiLine('bot', 'Hello Ada', 1735725601000, 1)],
      messagesOpenAIFormatted: [{ role: 'assistant', content: 'Hello Ada' }],
    });
    const partial = await fake.send(vapiCallId, {
      type: 'transcript',
      call,
      role: 'user',
      transcriptType: 'partial',
      transcript: 'H',
      timestamp: 1735725601900,
    });
    expect(partial.skipped).toBe('not-requested');
    await fake.send(vapiCallId, {
      type: 'transcript',
      call,
      role: 'user',
      transcriptType: 'final',
      transcript: 'Hi',
      timestamp: 1735725602000,
    });
    const live = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
    expect(live).toMatchObject({ status: 'processing', apiCallStatus: 'in-progress' });
    expect(live.transcript).toEqual([
      { role: 'assistant', content: 'Hello Ada', timestamp: 1735725601000 },
      { role: 'user', content: 'Hi', timestamp: 1735725602000 },
    ]);

    const report = await fake.send(vapiCallId, endOfCallReport(vapiCallId, id, { cost: 0.0875 }));
    expect(report.attempts.map((a) => a.status)).toEqual([200]);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({
      status: 'ended',
      apiCallStatus: 'ended',
      apiCallId: vapiCallId,
      endedReason: 'customer-ended-call',
      resultStatus: 'Answered',
      durationSeconds: 90,
      recordingUrl: `https://storage.vapi.ai/${vapiCallId}-mono.wav`,
      providerCost: 0.0875,
    });
    const { rows } = await t.db.query('SELECT provider_summary FROM calls WHERE id = $1', [id]);
    expect(rows[0].provider_summary).toBe('Short call');
    expect(ended.transcript.map((m: any) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    expect(await ledgerRowsOf(t, id)).toEqual([{ type: 'outbound_call', amount_mins: -2, duration_mins: 1.5 }]);
  });

  it('out-of-order and repeated messages: one terminal event, one settlement, nothing regresses', async () => {
    const { id, vapiCallId } = await placed();
    const report = endOfCallReport(vapiCallId, id, {
      endedReason: 'voicemail',
      endedAt: '2025-01-01T10:00:30.000Z',
    });
    const first = await Promise.all([fake.send(vapiCallId, report), fake.send(vapiCallId, report)]);
    expect(first.map((r) => r.attempts.map((a) => a.status))).toEqual([[200], [200]]);
    await fake.send(vapiCallId, { type: 'status-update', status: 'in-progress', call: vapiCall(vapiCallId, id) });
    await fake.send(vapiCallId, {
      type: 'conversation-update',
      call: vapiCall(vapiCallId, id),
      messages: [],
      messagesOpenAIFormatted: [],
    });
    await fake.send(vapiCallId, report);
    const call = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
    expect(call).toMatchObject({
      status: 'ended',
      apiCallStatus: 'ended',
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      durationSeconds: 30,
    });
    expect(call.transcript).toHaveLength(3);
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    expect(await ledgerRowsOf(t, id)).toHaveLength(1);
  });

  it('a message that overtakes the POST /call answer finds the call by its metadata', async () => {
    const { id } = await placed();
    // A second platform id for the same call: only the metadata can match it, and the recorded id wins.
    const res = await serverMessage(t, {
      type: 'status-update',
      status: 'ringing',
      call: vapiCall('not-yet-known', id),
    });
    expect(res.status).toBe(200);
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.apiCallStatus).toBe('ringing');
  });

  it.each([
    ['a wrong secret', 'nope'],
    ['no secret', ''],
  ])('%s is 401 and changes nothing', async (_, secret) => {
    const { id, vapiCallId } = await placed();
    const res = await serverMessage(t, endOfCallReport(vapiCallId, id), secret);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    // A later, signed message is handled: the refused report before it changed nothing.
    const later = await serverMessage(t, { type: 'status-update', status: 'ringing', call: vapiCall(vapiCallId, id) });
    expect(later.status).toBe(200);
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data).toMatchObject({
      status: 'processing',
      apiCallStatus: 'ringing',
      endedReason: null,
    });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started']);
  });

  it('a malformed message is 400', async () => {
    const res = await t.anonymous.post(
      '/platform/vapi/events',
      { nothing: true },
      { headers: { 'x-vapi-secret': 'test-vapi-secret' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('a 503 from Vapi (it did not act on the request) is retried with backoff until it accepts', async () => {
    fake.failNext({ status: 503, message: 'Service Unavailable' }, { status: 503, message: 'Service Unavailable' });
    const before = fake.createCalls().length;
    const { id } = await placed();
    expect(fake.createCalls().length - before).toBe(3);
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.status).toBe('processing');
  });

  it('a 429 (the account pool is full) puts the call back to wait, honouring Retry-After, then it is placed', async () => {
    fake.failNext({ status: 429, message: 'Concurrency limit reached', retryAfter: 1 });
    const before = fake.createCalls().length;
    const res = await org.api.post('/api/v1/calls', { to: '+14155550126', from: org.from });
    const id: string = res.body.data.id;
    const { vapiCallId } = await fake.createCallFor(id, 30_000);
    const attempts = fake
      .createCalls()
      .slice(before)
      .filter((r) => r.body?.assistant?.metadata?.callId === id);
    expect(attempts).toHaveLength(2);
    const call = await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
    expect(call.status).toBe('processing');
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started']);
    const { rows } = await t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [id]);
    expect(rows.map((r) => r.status)).toEqual(['reserved']);
  });

  it("a call Vapi blocked (its pool full: a call body, not a 429) is placed again; the blocked attempt's late report leaves the retry live", async () => {
    fake.concurrencyLimit = 0;
    const res = await org.api.post('/api/v1/calls', { to: '+14155550128', from: org.from });
    const id: string = res.body.data.id;
    const blockedAttempt = () =>
      fake.createCalls().find((r) => r.blocked && r.body?.assistant?.metadata?.callId === id)?.blocked;
    for (let i = 0; i < 200 && !blockedAttempt(); i++) await new Promise((r) => setTimeout(r, 50));
    const blockedId = blockedAttempt()!;
    expect(blockedId).toEqual(expect.any(String));
    fake.concurrencyLimit = null;
    const { vapiCallId } = await fake.createCallFor(id, 30_000);
    await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);

    // The blocked attempt's own report comes late, naming our call in its metadata: it must not end the retry.
    const late = await fake.end(blockedId, { endedReason: 'call.start.error-subscription-concurrency-limit-reached' });
    expect(late.attempts.at(-1)?.status).toBe(200);
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data).toMatchObject({
      status: 'processing',
      apiCallId: vapiCallId,
    });
    await fake.status(vapiCallId, 'in-progress');
    await fake.end(vapiCallId, {
      endedReason: 'customer-ended-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:00:30.000Z',
    });
    expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });

  it('a call deferred by a 429 waits with its minute reserved; cancelled meanwhile, it gives the minute back', async () => {
    fake.failNext({ status: 429, message: 'Concurrency limit reached', retryAfter: 300 });
    const res = await org.api.post('/api/v1/calls', { to: '+14155550127', from: org.from });
    const id: string = res.body.data.id;
    const deferred = async () =>
      (await t.db.query('SELECT status, retry_at FROM calls WHERE id = $1 AND retry_at IS NOT NULL', [id])).rows[0];
    for (let i = 0; i < 200 && !(await deferred()); i++) await new Promise((r) => setTimeout(r, 50));
    const row = await deferred();
    expect(row.status).toBe('new');
    // Held back for Vapi's Retry-After (300 s), not retried meanwhile.
    expect(row.retry_at.getTime()).toBeGreaterThan(Date.now() + 200_000);
    const reservations = () => t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [id]);
    expect((await reservations()).rows).toEqual([{ status: 'reserved' }]);

    expect((await org.api.delete(`/api/v1/calls/${id}`)).status).toBe(204);
    expect((await reservations()).rows.map((r) => r.status)).not.toContain('reserved');
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.cancelled']);
    const attempts = fake.createCalls().filter((r) => r.body?.assistant?.metadata?.callId === id);
    expect(attempts).toHaveLength(1);
    expect(await ledgerRowsOf(t, id)).toEqual([{ type: 'outbound_call', amount_mins: 0, duration_mins: 0 }]);
  });

  it('a 500 on POST /call (Vapi may have placed the call): the call waits, Vapi is searched for it, then it is placed once', async () => {
    fake.failNext({ status: 500, message: 'Internal Server Error' });
    const res = await org.api.post('/api/v1/calls', { to: '+14155550125', from: org.from });
    const id: string = res.body.data.id;
    const { vapiCallId } = await fake.createCallFor(id, 30_000);
    const attempts = fake.createCalls().filter((r) => r.body?.assistant?.metadata?.callId === id);
    expect(attempts.map((r) => Boolean(r.accepted))).toEqual([false, true]);
    // Between the two, GET /call for the number since the failed attempt found nothing of ours.
    const second = fake.requests.indexOf(attempts[1]);
    const searched = fake.requests
      .slice(fake.requests.indexOf(attempts[0]), second)
      .filter((r) => r.method === 'GET' && r.path.startsWith('/call?'));
    expect(searched).toHaveLength(1);
    expect(new URLSearchParams(searched[0].path.split('?')[1]).get('phoneNumberId')).toBe(org.phoneNumberId);
    const call = await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
    expect(call).toMatchObject({
      status: 'processing',
      platformAttempts: [
        { platform: 'vapi', at: expect.any(String), error: 'vapi-unavailable: 500 Internal Server Error' },
      ],
    });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started']);
  });

  it('a 4xx from Vapi ends the call in error with the reason, fires call.failed and releases the minute', async () => {
    fake.failNext({ status: 400, message: 'customer.number must be a valid phone number in the E.164 format' });
    const before = fake.createCalls().length;
    const res = await org.api.post('/api/v1/calls', { to: '+14155550124', from: org.from });
    const call = await waitForCall(org, res.body.data.id, finished);
    expect(call).toMatchObject({
      status: 'error',
      endedReason: 'vapi-rejected: 400 customer.number must be a valid phone number in the E.164 format',
      apiCallId: null,
    });
    expect(fake.createCalls().length - before).toBe(1);
    expect((await eventsOf(t, call.id)).map((e) => e.type)).toEqual(['call.failed']);
    const { rows } = await t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [call.id]);
    expect(rows.map((r) => r.status)).not.toContain('reserved');
  });
});
