import type { Vapi } from '@vapi-ai/server-sdk';
import { TestApp, startTestApp } from '../support/test-app';
import { eventsOf, finished, insertPrompt, waitForCall } from '../calls/call-fixtures';
import { FakeVapi } from './fake-vapi';
import { captured as capturedAnswer } from './fixtures/assistant-request-response.fixture';
import { VAPI_WIRE, expectCapturedFixture } from '../support/captured-fixture';
import { VoiceOrg, serverMessage, vapiCall, vapiEnv, vapiLine, voiceOrg } from './voice-fixtures';

describe('voice platform: inbound calls through Vapi assistant-request', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;
  beforeAll(async () => {
    fake = await FakeVapi.start();
    t = await startTestApp({ env: vapiEnv(fake.url) });
    org = await voiceOrg(t, 0);
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

  const inboundCall = (vapiCallId: string) =>
    vapiCall(vapiCallId, undefined, {
      type: 'inboundPhoneCall',
      phoneNumberId: org.phoneNumberId,
      customer: { number: '+14155550177' },
    });
  const phoneNumber = (number: string) => ({ provider: 'twilio' as const, number, twilioAccountSid: 'AC-fake' });

  it('answers with the inbound assistant, records the call inbound, bills it as inbound_call and fires call.ended', async () => {
    const vapiCallId = 'vapi-inbound-1';
    const request: Vapi.ServerMessageAssistantRequest = {
      type: 'assistant-request',
      call: inboundCall(vapiCallId),
      phoneNumber: phoneNumber(org.from),
      customer: { number: '+14155550177' },
    };
    const answer = await serverMessage(t, request);
    expect(answer.status).toBe(200);
    const { assistant } = answer.body;
    expect(assistant.model.messages).toEqual([{ role: 'system', content: 'You are the front desk of Acme.' }]);
    expect(assistant).toMatchObject({
      firstMessage: expect.any(String),
      voice: expect.any(Object),
      transcriber: expect.any(Object),
    });
    const callId: string = assistant.metadata.callId;
    // The answer, committed with our call id masked, is what tsc checks against Vapi's response type.
    const masked = { ...answer.body, assistant: { ...assistant, metadata: {} } };
    await expectCapturedFixture(
      `${__dirname}/fixtures/assistant-request-response.fixture.ts`,
      VAPI_WIRE('ServerMessageResponseAssistantRequest'),
      capturedAnswer,
      masked,
    );

    // Vapi may repeat the request: still one call.
    expect((await serverMessage(t, request)).body.assistant.metadata.callId).toBe(callId);
    const recorded = (await org.api.get(`/api/v1/calls/${callId}`)).body.data;
    expect(recorded).toMatchObject({
      direction: 'inbound',
      status: 'processing',
      callFrom: org.from,
      callTo: '+14155550177',
      apiCallId: vapiCallId,
    });
    expect((await org.api.get('/api/v1/calls', { query: { status: 'processing' } })).body.data).toHaveLength(1);

    await serverMessage(t, { type: 'status-update', status: 'in-progress', call: inboundCall(vapiCallId) });
    await serverMessage(t, {
      type: 'end-of-call-report',
      call: inboundCall(vapiCallId),
      endedReason: 'customer-ended-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:02:05.000Z',
      artifact: { messages: [vapiLine('bot', 'Acme, hello', 1), vapiLine('user', 'Hi', 2)] },
      analysis: {},
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
    const res = await serverMessage(t, {
      type: 'assistant-request',
      call: vapiCall('vapi-inbound-unknown', undefined, { type: 'inboundPhoneCall' }),
      phoneNumber: phoneNumber('+14155550000'),
      customer: { number: '+14155550177' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await t.db.query(`SELECT 1 FROM calls WHERE api_call_id = 'vapi-inbound-unknown'`)).rowCount).toBe(0);
  });

  it('an inbound call that fails fires call.failed, never call.started', async () => {
    const vapiCallId = 'vapi-inbound-2';
    const answer = await serverMessage(t, {
      type: 'assistant-request',
      call: inboundCall(vapiCallId),
      phoneNumber: phoneNumber(org.from),
      customer: { number: '+14155550178' },
    });
    const callId = answer.body.assistant.metadata.callId;
    await serverMessage(t, {
      type: 'end-of-call-report',
      call: inboundCall(vapiCallId),
      endedReason: 'pipeline-error-openai-llm-failed',
      artifact: {},
      analysis: {},
    });
    expect(await waitForCall(org, callId, finished)).toMatchObject({
      status: 'error',
      endedReason: 'pipeline-error-openai-llm-failed',
      resultStatus: null,
    });
    expect((await eventsOf(t, callId)).map((e) => e.type)).toEqual(['call.failed']);
  });
});
