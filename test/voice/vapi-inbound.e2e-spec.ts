import { createOrg } from '../support/factory';
import type { TestApp } from '../support/test-app';
import { eventsOf, finished, insertPrompt, waitForCall } from '../calls/call-fixtures';
import type { FakeVapi } from './fake-vapi';
import { captured as capturedAnswer } from './fixtures/assistant-request-response.fixture';
import { VAPI_WIRE, expectCapturedFixture } from '../support/captured-fixture';
import { VAPI_SECRET, VoiceOrg, startWithVapi, vapiLine, voiceOrg } from './voice-fixtures';

describe('voice platform: inbound calls through Vapi assistant-request', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;
  beforeAll(async () => {
    ({ fake, t } = await startWithVapi());
    org = await voiceOrg(t, 0, fake);
    const sub = await t.admin.post(`/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'receptionist',
      tier: 1,
      quantity: 1,
    });
    expect(sub.status).toBe(201);
    const older = await insertPrompt(t, org.id, 'You are the front desk of Acme.');
    const newer = await insertPrompt(t, org.id, 'Not this one.');
    for (const [name, systemPromptId] of [
      ['Front desk', older],
      ['Later', newer],
    ]) {
      const res = await t.admin.post(`/admin/v1/organizations/${org.id}/inbound-assistants`, { name, systemPromptId });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const caller = '+14155550177';

  it('answers with the inbound assistant, records the call inbound, bills it as inbound_call and fires call.ended', async () => {
    const { vapiCallId, response, sent } = await fake.ring(org.phoneNumberId, caller);
    expect(sent.attempts.map((a) => a.status)).toEqual([200]);
    // The number's server, as the import set it: our URL and credential.
    expect(sent.attempts[0].headers.authorization).toBe(`Bearer ${VAPI_SECRET}`);
    const answer = response as { assistant: any };
    const { assistant } = answer;
    expect(assistant.model.messages).toEqual([{ role: 'system', content: 'You are the front desk of Acme.' }]);
    expect(assistant).toMatchObject({
      firstMessage: expect.any(String),
      voice: expect.any(Object),
      transcriber: expect.any(Object),
    });
    const callId: string = assistant.metadata.callId;
    // The answer, committed with our call id masked, is what tsc checks against Vapi's response type.
    const masked = { ...answer, assistant: { ...assistant, metadata: {} } };
    await expectCapturedFixture(
      `${__dirname}/fixtures/assistant-request-response.fixture.ts`,
      VAPI_WIRE('ServerMessageResponseAssistantRequest'),
      capturedAnswer,
      masked,
    );

    // Vapi may repeat the request: still one call.
    const again = await fake.resend(sent);
    expect((again.response as { assistant: any }).assistant.metadata.callId).toBe(callId);
    const recorded = (await org.api.get(`/api/v1/calls/${callId}`)).body.data;
    expect(recorded).toMatchObject({
      direction: 'inbound',
      status: 'processing',
      callFrom: org.from,
      callTo: caller,
      apiCallId: vapiCallId,
    });
    expect((await org.api.get('/api/v1/calls', { query: { status: 'processing' } })).body.data).toHaveLength(1);

    await fake.status(vapiCallId, 'in-progress');
    await fake.end(vapiCallId, {
      endedReason: 'customer-ended-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:02:05.000Z',
      artifact: { messages: [vapiLine('bot', 'Acme, hello', 1), vapiLine('user', 'Hi', 2)] },
    });
    const ended = await waitForCall(org, callId, finished);
    expect(ended).toMatchObject({
      status: 'ended',
      direction: 'inbound',
      resultStatus: 'Answered',
      durationSeconds: 125,
    });
    expect((await eventsOf(t, callId)).map((e) => e.type)).toEqual(['call.ended']);

    const history = await org.api.get('/api/v1/usage/history');
    expect(history.status).toBe(200);
    const row = history.body.data.find((r: any) => r.providerCallId === vapiCallId);
    expect(row).toMatchObject({
      type: 'inbound_call',
      durationMins: 2.08,
      includedInPlan: true,
      amountMins: 0,
      productType: 'receptionist',
    });
  });

  it('a call to a number of no organization is refused and records nothing', async () => {
    // A number of the Vapi account pointed at us by hand, but assigned to no organization.
    const stray = fake.addNumber('+14155550000');
    const ours = fake.phoneNumbers.get(org.phoneNumberId)!;
    fake.phoneNumbers.set(stray, { ...fake.phoneNumbers.get(stray)!, server: ours.server });
    const { vapiCallId, response, sent } = await fake.ring(stray, caller);
    expect(sent.attempts.map((a) => a.status)).toEqual([200]);
    expect(response).toEqual({ error: expect.any(String) });
    expect((await t.db.query(`SELECT 1 FROM calls WHERE api_call_id = $1`, [vapiCallId])).rowCount).toBe(0);
  });

  it('importing a number clears the assistant its dashboard named, so Vapi asks us (assistant-request)', async () => {
    const other = await createOrg(t);
    const number = '+14155550179';
    const id = fake.addNumber(number, 'vapi', { assistantId: 'asst-from-dashboard' });
    const res = await t.admin.post(`/admin/v1/organizations/${other.id}/phone-numbers`, { number });
    expect(res.status).toBe(201);
    const patch = fake.requests.find((r) => r.method === 'PATCH' && r.path === `/phone-number/${id}`);
    expect(patch?.body).toMatchObject({ assistantId: null, squadId: null, workflowId: null });
    expect(fake.phoneNumbers.get(id)?.assistantId).toBeUndefined();
    const { sent } = await fake.ring(id, caller);
    expect(sent.skipped).toBeUndefined();
    expect(sent.attempts.map((a) => a.status)).toEqual([200]);
  });

  it("answers assistant-request within Vapi's 7.5 s when the database is slow: an error, not silence", async () => {
    // The slow dependency: PostgreSQL holding the numbers table (a long migration, a stuck transaction).
    const holder = await t.db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE phone_numbers IN ACCESS EXCLUSIVE MODE');
      const { vapiCallId, response, sent } = await fake.ring(org.phoneNumberId, '+14155550181');
      // The fake gives up at 7.5 s as Vapi does (the call would end `assistant-request-failed`): we answered first.
      expect(sent.attempts.map((a) => a.status)).toEqual([200]);
      expect(response).toEqual({ error: expect.any(String) });
      expect(fake.calls.get(vapiCallId)?.endedReason).toBe('assistant-request-returned-error');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  }, 30_000);

  it('an inbound call that fails fires call.failed, never call.started', async () => {
    const { vapiCallId, response } = await fake.ring(org.phoneNumberId, '+14155550178');
    const callId = (response as { assistant: any }).assistant.metadata.callId;
    await fake.end(vapiCallId, { endedReason: 'pipeline-error-openai-llm-failed' });
    expect(await waitForCall(org, callId, finished)).toMatchObject({
      status: 'error',
      endedReason: 'pipeline-error-openai-llm-failed',
      resultStatus: null,
    });
    expect((await eventsOf(t, callId)).map((e) => e.type)).toEqual(['call.failed']);
  });
});
