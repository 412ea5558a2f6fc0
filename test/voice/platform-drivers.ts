import type { Vapi } from '@vapi-ai/server-sdk';
import { waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { retellOrg, startWithRetell } from './retell-fixtures';
import { VapiSchema } from './vapi-schema';
import { VoiceOrg, startWithVapi, vapiLine, voiceOrg } from './voice-fixtures';

/**
 * What one voice platform does to a call when a test asks, so the flows of the platform suite
 * (voice-flows.e2e-spec.ts, call-outcomes-scenario.e2e-spec.ts) are written once and played on the simulator,
 * the strict fake Vapi and the strict fake Retell. Every method takes our call id; the fakes act on the call
 * our placement created there. The simulator plays each call by itself from its number (docs/contracts/
 * simulator.md): its methods wait for what it does on its own instead of making it happen.
 */
export interface PlatformDriver {
  platform: 'simulator' | 'vapi' | 'retell';
  t: TestApp;
  /** A new organization with minutes and a number on this platform. */
  newOrg(): Promise<VoiceOrg>;
  /** The customer picks up: the call is `in-progress` (our record says so). */
  answer(org: VoiceOrg, callId: string): Promise<void>;
  /** A person answers, talks and hangs up; the platform's analysis reports `extracted` as structured data. */
  answerHuman(org: VoiceOrg, callId: string, extracted?: Record<string, unknown>): Promise<void>;
  /** An answering machine picks up (the platform then does what the call's voicemail policy asked). */
  answerMachine(org: VoiceOrg, callId: string): Promise<void>;
  /** The assistant calls the call's function tool `name` with `args` (what the platform was answered is checked). */
  invokeTool(org: VoiceOrg, callId: string, name: string, args: Record<string, unknown>): Promise<void>;
  /** The assistant uses the call's transfer tool: its first destination takes the call, which ends forwarded. */
  transfer(org: VoiceOrg, callId: string): Promise<void>;
  /** Whether the platform was asked to end the call (after POST /api/v1/calls/{id}/end). */
  endRequested(org: VoiceOrg, callId: string): Promise<boolean>;
  /** The endedReason of a call ended through the API, in the platform's own words where it keeps them. */
  stoppedReason: string;
  /** The endedReason of a call the other side hung up (each platform keeps its own). */
  hungUp: string;
  /** From now on, the platform's end-of-call report of this call is lost on the way. */
  loseReport(org: VoiceOrg, callId: string): Promise<void>;
  /** Whether the service asked the platform for the call (GET, after a lost report). */
  askedFor(org: VoiceOrg, callId: string): Promise<boolean>;
  /** A caller rings the organization's number from `from`: our inbound call's id. */
  ringInbound(org: VoiceOrg, from: string): Promise<string>;
  /** The calls live on the platform's account now (null: the simulator, whose live calls are only ours). */
  liveOnPlatform(): number | null;
  /** The POST /call body of a call (Vapi only: the other platforms take no assistant per call). */
  createBody?(callId: string): Promise<Vapi.CreateCallDto>;
  close(): Promise<void>;
}

/** A platform the suite runs on: its name, how to start it, and the flows it cannot play (and why). */
export interface PlatformUnderTest {
  name: string;
  start(env: Record<string, string>): Promise<PlatformDriver>;
  /**
   * Flows this platform cannot play, each with the reason; the suite leaves them out for this platform only (the
   * same flow runs on the others).
   */
  cannot: Partial<Record<PlatformFlow, string>>;
}

export type PlatformFlow = 'lose-report' | 'undetected-bad-analysis' | 'keyterms';

/** Our platform id of a call, once the platform took it (outbound) or it was recorded (inbound). */
const platformIdOf = async (org: VoiceOrg, callId: string): Promise<string> =>
  (await waitForCall(org, callId, (c) => c.apiCallId !== null && c.status !== 'new')).apiCallId;

const inProgress = (c: { status: string; apiCallStatus: string | null }) =>
  c.status === 'processing' && (c.apiCallStatus === 'in-progress' || c.apiCallStatus === 'forwarding');

/** Shorter than the supervision's own: the flows here end in seconds. */
const GRACE = { VAPI_REPORT_GRACE_MS: '300', RETELL_REPORT_GRACE_MS: '300', RETELL_ANALYSIS_GRACE_MS: '2000' };

export const SIMULATOR: PlatformUnderTest = {
  name: 'the simulator',
  cannot: {
    'lose-report':
      'the simulator applies its own events in-process (its step jobs): there is no report on the way to lose',
    'undetected-bad-analysis': 'the simulator builds its structured data from the schema: it is always valid',
    keyterms: 'the simulator has no transcriber',
  },
  async start(env) {
    // Answered calls last 4 s: long enough to be ended through the API while live, short enough for the suite.
    const t = await startTestApp({ env: { SIMULATOR_RING_MS: '100', SIMULATOR_CALL_MS: '4000', ...env } });
    const waitLive = async (org: VoiceOrg, callId: string) => void (await waitForCall(org, callId, inProgress));
    return {
      platform: 'simulator',
      t,
      newOrg: () => voiceOrg(t),
      answer: waitLive,
      // The number called decides (0-6 answered, 7 a machine): the call plays itself.
      answerHuman: async () => undefined,
      answerMachine: async () => undefined,
      // Each function tool is called once after the first user turn, with arguments built from its parameters.
      invokeTool: async (org, callId) =>
        void (await waitForCall(org, callId, (c) => c.toolCalls.length > 0 || c.status !== 'processing')),
      // A number ending in 6 is transferred to the first destination of the call's transfer tool.
      transfer: async () => undefined,
      // The simulator withdraws the call's remaining steps in-process: nothing to see from outside.
      endRequested: async () => true,
      stoppedReason: 'manually-canceled',
      hungUp: 'customer-ended-call',
      loseReport: () => Promise.reject(new Error(SIMULATOR.cannot['lose-report'])),
      askedFor: async () => false,
      ringInbound: async (org, from) => {
        const res = await t.admin.post('/admin/v1/simulator/inbound-calls', { to: org.from, from });
        if (res.status !== 201) throw new Error(`inbound: ${res.status} ${res.text}`);
        return res.body.data.id;
      },
      liveOnPlatform: () => null,
      close: () => t.close(),
    };
  },
};

export const VAPI: PlatformUnderTest = {
  name: 'the strict fake Vapi',
  cannot: {},
  async start(env) {
    const { fake, t } = await startWithVapi({ ...GRACE, ...env });
    const idOf = platformIdOf;
    const talk = async (vapiCallId: string, extracted?: Record<string, unknown>) => {
      await fake.status(vapiCallId, 'in-progress');
      const messages = [vapiLine('bot', 'Hello', 1735725601000, 1), vapiLine('user', 'Hi there', 1735725602000, 2)];
      await fake.end(vapiCallId, {
        endedReason: 'customer-ended-call',
        startedAt: '2025-01-01T10:00:00.000Z',
        endedAt: '2025-01-01T10:00:30.000Z',
        artifact: { messages },
        analysis: { summary: 'The customer confirmed.', structuredData: extracted, successEvaluation: 'true' },
      });
    };
    return {
      platform: 'vapi',
      t,
      // A Twilio number: the one carrier Vapi makes warm transfers on.
      newOrg: () => voiceOrg(t, 1000, fake, 'twilio'),
      answer: async (org, callId) => {
        const id = await idOf(org, callId);
        await fake.status(id, 'ringing');
        await fake.status(id, 'in-progress');
        await waitForCall(org, callId, inProgress);
      },
      answerHuman: async (org, callId, extracted) => talk(await idOf(org, callId), extracted),
      answerMachine: async (org, callId) => {
        const sent = await fake.answerMachine(await idOf(org, callId));
        expect(sent.attempts.map((a) => a.status)).toEqual([200]);
      },
      invokeTool: async (org, callId, name, args) => {
        const results = await fake.callTool(await idOf(org, callId), name, args);
        // Vapi hands the model the result as a string: our answer is the customer's result, serialised.
        expect(results).toEqual([expect.objectContaining({ name, result: expect.any(String) })]);
      },
      transfer: async (org, callId) => void (await fake.transfer(await idOf(org, callId))),
      endRequested: async (org, callId) => fake.controlled.includes(await idOf(org, callId)),
      stoppedReason: 'manually-canceled',
      hungUp: 'customer-ended-call',
      loseReport: async (org, callId) => void fake.lostReports.add(await idOf(org, callId)),
      askedFor: async (org, callId) => {
        const id = await idOf(org, callId);
        return fake.requests.some((r) => r.method === 'GET' && r.path === `/call/${id}`);
      },
      ringInbound: async (org, from) => {
        const { response } = await fake.ring(org.phoneNumberId, from);
        return (response as { assistant: { metadata: { callId: string } } }).assistant.metadata.callId;
      },
      liveOnPlatform: () => fake.liveCalls(),
      createBody: async (callId) => {
        const body = (await fake.createCallFor(callId)).request.body!;
        // What we sent is what Vapi's SDK types accept, checked again here beside the fake's own check.
        expect(VapiSchema.get().validate('CreateCallDto', body)).toEqual([]);
        return body;
      },
      close: async () => {
        await t.close();
        await fake.close();
      },
    };
  },
};

export const RETELL: PlatformUnderTest = {
  name: 'the strict fake Retell',
  cannot: { keyterms: 'Retell has no per-call transcriber keywords in its agent' },
  async start(env) {
    const { fake, t } = await startWithRetell({ ...GRACE, ...env });
    const idOf = platformIdOf;
    return {
      platform: 'retell',
      t,
      newOrg: () => retellOrg(t, fake),
      answer: async (org, callId) => {
        await fake.started(await idOf(org, callId));
        await waitForCall(org, callId, inProgress);
      },
      answerHuman: async (org, callId, extracted) => fake.answerHuman(await idOf(org, callId), extracted),
      answerMachine: async (org, callId) => fake.answerMachine(await idOf(org, callId)),
      invokeTool: async (org, callId, name, args) => {
        const answer = await fake.callTool(await idOf(org, callId), name, args);
        expect(answer).toEqual({ status: 200, body: { result: expect.anything() } });
      },
      transfer: async (org, callId) => fake.transfer(await idOf(org, callId)),
      endRequested: async (org, callId) => {
        const id = await idOf(org, callId);
        return fake.requests.some((r) => r.method === 'POST' && r.path === `/v2/stop-call/${id}`);
      },
      stoppedReason: 'manual_stopped',
      hungUp: 'user_hangup',
      loseReport: async (org, callId) => void fake.lostReports.add(await idOf(org, callId)),
      askedFor: async (org, callId) => {
        const id = await idOf(org, callId);
        return fake.requests.some((r) => r.method === 'GET' && r.path === `/v2/get-call/${id}`);
      },
      ringInbound: async (org, from) => {
        const { retellCallId } = await fake.inbound(org.from, from);
        if (!retellCallId) throw new Error('Retell was given no agent for the inbound call');
        // The call is recorded when it starts (call_started), found by its Retell id.
        await fake.started(retellCallId);
        const listed = (await org.api.get('/api/v1/calls')).body.data as Array<{ id: string; apiCallId: string }>;
        return listed.find((c) => c.apiCallId === retellCallId)!.id;
      },
      liveOnPlatform: () => fake.liveCalls(),
      close: async () => {
        await t.close();
        await fake.close();
      },
    };
  },
};

export const PLATFORMS: Array<[string, PlatformUnderTest]> = [SIMULATOR, VAPI, RETELL].map((p) => [p.name, p]);
