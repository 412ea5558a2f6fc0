import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { FakeVapi } from './fake-vapi';
import { VoiceOrg, startWithVapi, voiceOrg } from './voice-fixtures';

/**
 * `POST /api/v1/calls/{id}/end` on both platforms: a live call is hung up through the platform and ends once,
 * with `manually-canceled`; a call that is not live is 422 INVALID_STATE. The simulator's calls here last ten
 * minutes, so the end can only come from the request.
 */
interface Platform {
  t: TestApp;
  org: VoiceOrg;
  /** Brings an outbound call to `in-progress` (the customer answered). */
  answer(callId: string): Promise<void>;
  /** What the platform was asked to do to end the call, where it records it (Vapi). */
  endRequested?(callId: string): Promise<boolean>;
  close(): Promise<void>;
}

const live = (c: { status: string; apiCallStatus: string | null }) =>
  c.status === 'processing' && c.apiCallStatus === 'in-progress';

async function simulator(): Promise<Platform> {
  const t = await startTestApp({ env: { SIMULATOR_RING_MS: '100', SIMULATOR_CALL_MS: '600000' } });
  const org = await voiceOrg(t);
  return {
    t,
    org,
    answer: async (callId) => void (await waitForCall(org, callId, live)),
    close: () => t.close(),
  };
}

async function vapi(): Promise<Platform> {
  const { fake, t } = await startWithVapi();
  const org = await voiceOrg(t, 1000, fake);
  const vapiIdOf = async (callId: string) => (await fake.createCallFor(callId)).vapiCallId;
  return {
    t,
    org,
    answer: async (callId) => {
      const id = await vapiIdOf(callId);
      await fake.status(id, 'ringing');
      await fake.status(id, 'in-progress');
      await waitForCall(org, callId, live);
    },
    endRequested: async (callId) => fake.controlled.includes(await vapiIdOf(callId)),
    close: async () => {
      await t.close();
      await (fake as FakeVapi).close();
    },
  };
}

describe.each([
  ['the simulator', simulator],
  ['the strict fake Vapi', vapi],
])('ending a live call on %s', (_, start) => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await start();
  });
  afterAll(() => platform?.close());

  it('a live call is ended through the platform, once, and a second end is 422 INVALID_STATE', async () => {
    const { org, t } = platform;
    const res = await org.api.post('/api/v1/calls', { to: '+14155550141', from: org.from });
    expect(res.status).toBe(201);
    const id: string = res.body.data.id;
    await platform.answer(id);

    const ended = await org.api.post(`/api/v1/calls/${id}/end`, {});
    expect(ended.status).toBe(200);
    expect(ended.body.data.id).toBe(id);
    if (platform.endRequested) expect(await platform.endRequested(id)).toBe(true);

    const call = await waitForCall(org, id, finished);
    expect(call).toMatchObject({ status: 'ended', endedReason: 'manually-canceled' });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);

    const again = await org.api.post(`/api/v1/calls/${id}/end`, {});
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_STATE');
  });

  it('a scheduled call is not live: 422 INVALID_STATE, and it stays scheduled', async () => {
    const { org } = platform;
    const scheduledAt = new Date(Date.now() + 60_000).toISOString();
    const res = await org.api.post('/api/v1/calls', { to: '+14155550142', from: org.from, scheduledAt });
    const id: string = res.body.data.id;
    const end = await org.api.post(`/api/v1/calls/${id}/end`, {});
    expect(end.status).toBe(422);
    expect(end.body.error).toMatchObject({ code: 'INVALID_STATE' });
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.status).toBe('scheduled');
  });

  it('an unknown call is 404 NOT_FOUND', async () => {
    const end = await platform.org.api.post('/api/v1/calls/0190f0f0-0000-7000-8000-000000000000/end', {});
    expect(end.status).toBe(404);
    expect(end.body.error.code).toBe('NOT_FOUND');
  });
});
