import type { Vapi } from '@vapi-ai/server-sdk';
import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import type { RecordedRequest } from './fake-vapi';
import { VAPI_WIRE, expectCapturedFixture } from '../support/captured-fixture';
import { captured as capturedOutcomes } from './fixtures/create-call-outcomes.fixture';
import { VapiSchema } from './vapi-schema';
import { VoiceOrg, ledgerRowsOf, startWithVapi, vapiLine, voiceOrg } from './voice-fixtures';
import { retellOrg, startWithRetell } from './retell-fixtures';

/**
 * Voicemail and post-call analysis on every platform (docs/tools.md): the same cases and calls, played by the
 * simulator on its own, and by the strict fakes of Vapi and Retell from what our placement asked of them.
 */
interface Platform {
  t: TestApp;
  org: VoiceOrg;
  /** A person answers and talks; on Vapi, its analysis reports `extracted` as the structured data. */
  playAnswered(callId: string, extracted?: Record<string, unknown>): Promise<void>;
  /** An answering machine picks up. */
  playMachine(callId: string): Promise<void>;
  /** The POST /call body the platform received (Vapi only). */
  createBody?(callId: string): Promise<Vapi.CreateCallDto>;
  /** The endedReason of a call the other side hung up (each platform keeps its own). */
  hungUp: string;
  close(): Promise<void>;
}

async function simulator(): Promise<Platform> {
  const t = await startTestApp({ env: { SIMULATOR_RING_MS: '100', SIMULATOR_CALL_MS: '1200' } });
  const org = await voiceOrg(t);
  return {
    t,
    org,
    playAnswered: async () => undefined,
    playMachine: async () => undefined,
    hungUp: 'customer-ended-call',
    close: () => t.close(),
  };
}

async function vapi(): Promise<Platform> {
  const { fake, t } = await startWithVapi();
  const org = await voiceOrg(t, 1000, fake);
  const placed = async (callId: string): Promise<{ request: RecordedRequest; vapiCallId: string }> =>
    fake.createCallFor(callId);
  return {
    t,
    org,
    playAnswered: async (callId, extracted) => {
      const { vapiCallId } = await placed(callId);
      await fake.status(vapiCallId, 'ringing');
      await fake.status(vapiCallId, 'in-progress');
      const messages = [vapiLine('bot', 'Hello', 1735725601000, 1), vapiLine('user', 'Hi there', 1735725602000, 2)];
      await fake.end(vapiCallId, {
        endedReason: 'customer-ended-call',
        startedAt: '2025-01-01T10:00:00.000Z',
        endedAt: '2025-01-01T10:00:30.000Z',
        artifact: { messages },
        analysis: { summary: 'The customer confirmed.', structuredData: extracted, successEvaluation: 'true' },
      });
    },
    playMachine: async (callId) => {
      const sent = await fake.answerMachine((await placed(callId)).vapiCallId);
      expect(sent.attempts.map((a) => a.status)).toEqual([200]);
    },
    createBody: async (callId) => {
      const body = (await placed(callId)).request.body!;
      // What we sent is what Vapi's SDK types accept, checked again here beside the fake's own check.
      expect(VapiSchema.get().validate('CreateCallDto', body)).toEqual([]);
      return body;
    },
    hungUp: 'customer-ended-call',
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

/** The strict fake Retell plays the same calls from the agent our calls were placed with. */
async function retell(): Promise<Platform> {
  const { fake, t } = await startWithRetell();
  const org = await retellOrg(t, fake);
  const placed = async (callId: string) => (await fake.createCallFor(callId)).retellCallId;
  return {
    t,
    org,
    playAnswered: async (callId, extracted) => fake.answerHuman(await placed(callId), extracted),
    playMachine: async (callId) => fake.answerMachine(await placed(callId)),
    hungUp: 'user_hangup',
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

/** A schema whose built object is known: each property's example, default, first enum value, or empty value. */
const SCHEMA = {
  type: 'object',
  properties: {
    slot: { type: 'string', description: 'The time agreed', example: 'Tuesday 10:00' },
    confirmed: { type: 'boolean', default: true },
    plan: { type: 'string', enum: ['basic', 'plus'] },
    seats: { type: 'integer', minimum: 0 },
    note: { type: 'string' },
  },
  required: ['slot', 'confirmed'],
};
const BUILT = { slot: 'Tuesday 10:00', confirmed: true, plan: 'basic', seats: 0, note: '' };

describe.each([
  ['the simulator', simulator],
  ['the strict fake Vapi', vapi],
  ['the strict fake Retell', retell],
])('voicemail and post-call analysis on %s', (_, start) => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await start();
  });
  afterAll(() => platform?.close());

  async function createCase(extra: Record<string, unknown>): Promise<string> {
    const res = await platform.org.api.post('/api/v1/cases', { title: 'Outcomes', prompt: 'Be brief.', ...extra });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }

  async function call(to: string, caseId: string, variableValues?: Record<string, string>): Promise<string> {
    const res = await platform.org.api.post('/api/v1/calls', { to, from: platform.org.from, caseId, variableValues });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }

  it('voicemail left: the rendered message is the last assistant line, answeredBy voicemail, billed by time', async () => {
    const caseId = await createCase({
      voicemail: { action: 'leave-message', message: 'Hi {{name}}, please call us back.' },
    });
    const id = await call('+14155550147', caseId, { name: 'Ana' });
    if (platform.createBody) {
      const { assistant } = await platform.createBody(id);
      expect(assistant).toMatchObject({
        voicemailDetection: { provider: 'vapi' },
        voicemailMessage: 'Hi Ana, please call us back.',
      });
    }
    await platform.playMachine(id);
    const ended = await waitForCall(platform.org, id, finished);
    expect(ended).toMatchObject({
      status: 'ended',
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      answeredBy: 'voicemail',
    });
    const said = ended.transcript.filter((m: { role: string }) => m.role === 'assistant');
    expect(said.at(-1).content).toBe('Hi Ana, please call us back.');
    const [billed] = await ledgerRowsOf(platform.t, id);
    expect(billed.amount_mins).toBeLessThan(0);
  });

  it('voicemail not left (hang up, the default): only the first message said, answeredBy voicemail, nothing billed', async () => {
    const caseId = await createCase({});
    const id = await call('+14155550157', caseId);
    if (platform.createBody) {
      const { assistant } = await platform.createBody(id);
      expect(assistant?.voicemailDetection).toEqual({ provider: 'vapi' });
      expect(assistant).not.toHaveProperty('voicemailMessage');
    }
    await platform.playMachine(id);
    const ended = await waitForCall(platform.org, id, finished);
    expect(ended).toMatchObject({
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      answeredBy: 'voicemail',
    });
    const said = ended.transcript.filter((m: { role: string }) => m.role === 'assistant');
    expect(said.map((m: { content: string }) => m.content)).toEqual([ended.firstMessage]);
    expect(ended.durationSeconds).toBeGreaterThan(0);
    const [billed] = await ledgerRowsOf(platform.t, id);
    expect(billed.amount_mins).toBe(0);
  });

  it('detection off: a machine cannot be told from a person (answeredBy unknown), billed as talk', async () => {
    const caseId = await createCase({ voicemail: { detect: false } });
    const id = await call('+14155550167', caseId);
    if (platform.createBody) expect((await platform.createBody(id)).assistant?.voicemailDetection).toBe('off');
    await platform.playMachine(id);
    const ended = await waitForCall(platform.org, id, finished);
    expect(ended).toMatchObject({ endedReason: platform.hungUp, answeredBy: 'unknown' });
  });

  it('analysis: structured data equal to the schema-built object, success, summary, also in call.ended', async () => {
    const caseId = await createCase({
      analysis: { structuredDataSchema: SCHEMA, successCriteria: 'The customer confirms a slot.' },
    });
    const id = await call('+14155550171', caseId);
    if (platform.createBody) {
      const { assistant } = await platform.createBody(id);
      expect(assistant?.analysisPlan).toMatchObject({
        summaryPlan: { enabled: true },
        structuredDataPlan: { enabled: true, schema: { type: 'object', required: ['slot', 'confirmed'] } },
        successEvaluationPlan: { enabled: true, rubric: 'PassFail' },
      });
      // Committed with our ids masked: tsc checks it against Vapi's CreateCallDto (npm run typecheck:providers).
      const body = await platform.createBody(id);
      const masked = { ...body, phoneNumberId: 'pn-1', assistant: { ...body.assistant, metadata: {} } };
      await expectCapturedFixture(
        `${__dirname}/fixtures/create-call-outcomes.fixture.ts`,
        VAPI_WIRE('CreateCallDto'),
        capturedOutcomes,
        masked,
      );
    }
    await platform.playAnswered(id, BUILT);
    const ended = await waitForCall(platform.org, id, finished);
    expect(ended.answeredBy).toBe('human');
    expect(ended.analysis.structuredData).toEqual(BUILT);
    expect(ended.analysis.success).toBe(true);
    expect(typeof ended.analysis.summary).toBe('string');
    const events = await eventsOf(platform.t, id);
    expect(events.find((e) => e.type === 'call.ended')!.data.analysis).toEqual(ended.analysis);
  });

  if (start === vapi) {
    it("keyterms: the case's terms, one per line, reach the transcriber (Deepgram's keyterm)", async () => {
      const id = await call('+14155550174', await createCase({ keyterms: 'Acme Dental\n\n  Zyrtec  \n' }));
      const { assistant } = await platform.createBody!(id);
      expect(assistant?.transcriber).toMatchObject({ provider: 'deepgram', keyterm: ['Acme Dental', 'Zyrtec'] });
      await platform.playAnswered(id);
      expect(await waitForCall(platform.org, id, finished)).toMatchObject({ status: 'ended' });
    });
  }

  // Only a real model can get the structured data wrong; the simulator always builds valid data.
  if (start !== simulator) {
    it('analysis: structured data that does not fit the schema is stored as null', async () => {
      const caseId = await createCase({ analysis: { structuredDataSchema: SCHEMA } });
      const id = await call('+14155550172', caseId);
      await platform.playAnswered(id, { slot: 12, confirmed: 'yes' });
      const ended = await waitForCall(platform.org, id, finished);
      expect(ended.analysis).toMatchObject({ structuredData: null, summary: 'The customer confirmed.' });
    });
  }

  it('a call without an analysis plan carries analysis null', async () => {
    const id = await call('+14155550173', await createCase({}));
    await platform.playAnswered(id);
    const ended = await waitForCall(platform.org, id, finished);
    expect(ended).toMatchObject({ analysis: null, answeredBy: 'human' });
  });
});
