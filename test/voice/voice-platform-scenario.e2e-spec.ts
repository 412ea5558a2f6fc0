import { eventsOf, finished, insertPrompt, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import type { FakeVapi } from './fake-vapi';
import { VoiceOrg, ledgerRowsOf, startWithVapi, vapiLine, voiceOrg } from './voice-fixtures';

/**
 * One platform as the scenario sees it: how calls are played to their end. On the simulator they play by
 * themselves; on Vapi the strict fake plays them the way Vapi does (status updates, a conversation update, the
 * end-of-call report), each message sent only as the call's server settings ask.
 */
interface Platform {
  t: TestApp;
  org: VoiceOrg;
  /** Plays an outbound call to a normal end (answered, talked). */
  playOutbound(callId: string): Promise<void>;
  /** A customer calls the organization's number; our call id once the platform asked us for an assistant. */
  ringInbound(from: string): Promise<string>;
  /** Plays an inbound call to a normal end. */
  endInbound(callId: string): Promise<void>;
  /** Whether the platform was ever asked to place this call, where a platform records requests (Vapi). */
  wasPlaced?(callId: string): boolean;
  close(): Promise<void>;
}

async function receptionist(t: TestApp, org: VoiceOrg): Promise<void> {
  const sub = await t.admin.post(`/admin/v1/organizations/${org.id}/subscriptions`, {
    productType: 'receptionist',
    tier: 1,
    quantity: 1,
  });
  expect(sub.status).toBe(201);
  const systemPromptId = await insertPrompt(t, org.id, 'You are the front desk.');
  const desk = await t.admin.post(`/admin/v1/organizations/${org.id}/inbound-assistants`, {
    name: 'Desk',
    systemPromptId,
  });
  expect(desk.status).toBe(201);
}

async function simulator(): Promise<Platform> {
  const t = await startTestApp({ env: { SIMULATOR_RING_MS: '100', SIMULATOR_CALL_MS: '1500' } });
  const org = await voiceOrg(t);
  await receptionist(t, org);
  return {
    t,
    org,
    playOutbound: async () => undefined,
    ringInbound: async (from) => {
      const res = await t.admin.post('/admin/v1/simulator/inbound-calls', { to: org.from, from });
      expect(res.status).toBe(201);
      return res.body.data.id;
    },
    endInbound: async () => undefined,
    close: () => t.close(),
  };
}

async function vapi(): Promise<Platform> {
  const { fake, t } = await startWithVapi();
  const org = await voiceOrg(t, 1000, fake);
  await receptionist(t, org);
  const talk = async (fakeVapi: FakeVapi, vapiCallId: string) => {
    await fakeVapi.status(vapiCallId, 'ringing');
    await fakeVapi.status(vapiCallId, 'in-progress');
    const messages = [vapiLine('bot', 'Hello', 1735725601000, 1), vapiLine('user', 'Hi there', 1735725602000, 2)];
    await fakeVapi.send(vapiCallId, {
      type: 'conversation-update',
      call: fakeVapi.calls.get(vapiCallId)!,
      messages,
      messagesOpenAIFormatted: [],
    });
    const sent = await fakeVapi.end(vapiCallId, {
      endedReason: 'customer-ended-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:00:30.000Z',
      cost: 0.03,
      artifact: { messages },
    });
    expect(sent.attempts.map((a) => a.status)).toEqual([200]);
  };
  const vapiIdOf = new Map<string, string>();
  return {
    t,
    org,
    playOutbound: async (callId) => talk(fake, (await fake.createCallFor(callId)).vapiCallId),
    ringInbound: async (from) => {
      const { vapiCallId, response } = await fake.ring(org.phoneNumberId, from);
      const callId = (response as { assistant: { metadata: { callId: string } } }).assistant.metadata.callId;
      vapiIdOf.set(callId, vapiCallId);
      return callId;
    },
    endInbound: (callId) => talk(fake, vapiIdOf.get(callId)!),
    wasPlaced: (callId) => fake.createCalls().some((r) => r.body?.assistant?.metadata?.callId === callId),
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

describe.each([
  ['the simulator', simulator],
  ['the strict fake Vapi', vapi],
])('the same call flow on %s', (_, start) => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await start();
  });
  afterAll(() => platform?.close());

  it('outbound: placed, played to its end, ended with a transcript, billed by the minute', async () => {
    const { org, t } = platform;
    const res = await org.api.post('/api/v1/calls', { to: '+14155550161', from: org.from });
    expect(res.status).toBe(201);
    const id: string = res.body.data.id;
    await platform.playOutbound(id);
    const call = await waitForCall(org, id, finished);
    expect(call).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call', resultStatus: 'Answered' });
    expect(call.durationSeconds).toBeGreaterThan(0);
    expect(call.transcript.some((m: { role: string }) => m.role === 'user')).toBe(true);
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    const billed = (await ledgerRowsOf(t, id)).filter((r) => r.type === 'outbound_call');
    expect(billed).toHaveLength(1);
    expect(billed[0].amount_mins).toBeLessThan(0);
  });

  it('inbound: the platform asks for an assistant, the call is recorded inbound and ends', async () => {
    const { org, t } = platform;
    const id = await platform.ringInbound('+14155550162');
    await platform.endInbound(id);
    const call = await waitForCall(org, id, finished);
    expect(call).toMatchObject({
      status: 'ended',
      direction: 'inbound',
      callFrom: org.from,
      callTo: '+14155550162',
      endedReason: 'customer-ended-call',
      resultStatus: 'Answered',
    });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.ended']);
  });

  it('cancel: a scheduled call cancelled before its time never reaches the platform', async () => {
    const { org, t } = platform;
    const scheduledAt = new Date(Date.now() + 60_000).toISOString();
    const res = await org.api.post('/api/v1/calls', { to: '+14155550163', from: org.from, scheduledAt });
    expect(res.status).toBe(201);
    const id: string = res.body.data.id;
    expect((await org.api.delete(`/api/v1/calls/${id}`)).status).toBe(204);
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data).toMatchObject({
      status: 'cancelled',
      apiCallId: null,
    });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.scheduled', 'call.cancelled']);
    if (platform.wasPlaced) expect(platform.wasPlaced(id)).toBe(false);
  });
});
