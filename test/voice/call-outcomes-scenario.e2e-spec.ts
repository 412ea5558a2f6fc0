import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { VAPI_WIRE, expectCapturedFixture } from '../support/captured-fixture';
import { captured as capturedOutcomes } from './fixtures/create-call-outcomes.fixture';
import { PLATFORMS, PlatformDriver, PlatformFlow, PlatformUnderTest } from './platform-drivers';
import { VoiceOrg, ledgerRowsOf } from './voice-fixtures';

/**
 * Voicemail and post-call analysis on every platform (docs/tools.md): the same cases and calls, played by the
 * simulator on its own, and by the strict fakes of Vapi and Retell from what our placement asked of them (the
 * drivers of platform-drivers.ts, shared with the other flows in voice-flows.e2e-spec.ts; two files so that CI
 * runs them side by side).
 */
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

describe.each(PLATFORMS)('voicemail and post-call analysis on %s', (_, platform: PlatformUnderTest) => {
  let driver: PlatformDriver;
  let org: VoiceOrg;
  beforeAll(async () => {
    driver = await platform.start({});
    org = await driver.newOrg();
  });
  afterAll(() => driver?.close());

  /** A flow this platform plays; one it cannot is not registered for it (its driver says why). */
  const flow = (name: PlatformFlow, title: string, body: () => Promise<void>) => {
    if (!platform.cannot[name]) it(title, body);
  };

  async function createCase(extra: Record<string, unknown>): Promise<string> {
    const res = await org.api.post('/api/v1/cases', { title: 'Outcomes', prompt: 'Be brief.', ...extra });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }

  async function call(to: string, caseId: string, variableValues?: Record<string, string>): Promise<string> {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from, caseId, variableValues });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }

  it('voicemail left: the rendered message is the last assistant line, answeredBy voicemail, billed by time', async () => {
    const caseId = await createCase({
      voicemail: { action: 'leave-message', message: 'Hi {{name}}, please call us back.' },
    });
    const id = await call('+14155550147', caseId, { name: 'Ana' });
    if (driver.createBody) {
      const { assistant } = await driver.createBody(id);
      expect(assistant).toMatchObject({
        voicemailDetection: { provider: 'vapi' },
        voicemailMessage: 'Hi Ana, please call us back.',
      });
    }
    await driver.answerMachine(org, id);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({
      status: 'ended',
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      answeredBy: 'voicemail',
    });
    const said = ended.transcript.filter((m: { role: string }) => m.role === 'assistant');
    expect(said.at(-1).content).toBe('Hi Ana, please call us back.');
    const [billed] = await ledgerRowsOf(driver.t, id);
    expect(billed.amount_mins).toBeLessThan(0);
  });

  it('voicemail not left (hang up, the default): only the first message said, answeredBy voicemail, nothing billed', async () => {
    const caseId = await createCase({});
    const id = await call('+14155550157', caseId);
    if (driver.createBody) {
      const { assistant } = await driver.createBody(id);
      expect(assistant?.voicemailDetection).toEqual({ provider: 'vapi' });
      expect(assistant).not.toHaveProperty('voicemailMessage');
    }
    await driver.answerMachine(org, id);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({
      endedReason: 'voicemail-reached',
      resultStatus: 'Voicemail',
      answeredBy: 'voicemail',
    });
    const said = ended.transcript.filter((m: { role: string }) => m.role === 'assistant');
    expect(said.map((m: { content: string }) => m.content)).toEqual([ended.firstMessage]);
    expect(ended.durationSeconds).toBeGreaterThan(0);
    const [billed] = await ledgerRowsOf(driver.t, id);
    expect(billed.amount_mins).toBe(0);
  });

  it('detection off: a machine cannot be told from a person (answeredBy unknown), billed as talk', async () => {
    const caseId = await createCase({ voicemail: { detect: false } });
    const id = await call('+14155550167', caseId);
    if (driver.createBody) expect((await driver.createBody(id)).assistant?.voicemailDetection).toBe('off');
    await driver.answerMachine(org, id);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({ endedReason: driver.hungUp, answeredBy: 'unknown' });
  });

  it('analysis: structured data equal to the schema-built object, success, summary, also in call.ended', async () => {
    const caseId = await createCase({
      analysis: { structuredDataSchema: SCHEMA, successCriteria: 'The customer confirms a slot.' },
    });
    const id = await call('+14155550171', caseId);
    if (driver.createBody) {
      const { assistant } = await driver.createBody(id);
      expect(assistant?.analysisPlan).toMatchObject({
        summaryPlan: { enabled: true },
        structuredDataPlan: { enabled: true, schema: { type: 'object', required: ['slot', 'confirmed'] } },
        successEvaluationPlan: { enabled: true, rubric: 'PassFail' },
      });
      // Committed with our ids masked: tsc checks it against Vapi's CreateCallDto (npm run typecheck:providers).
      const body = await driver.createBody(id);
      const masked = { ...body, phoneNumberId: 'pn-1', assistant: { ...body.assistant, metadata: {} } };
      await expectCapturedFixture(
        `${__dirname}/fixtures/create-call-outcomes.fixture.ts`,
        VAPI_WIRE('CreateCallDto'),
        capturedOutcomes,
        masked,
      );
    }
    await driver.answerHuman(org, id, BUILT);
    const ended = await waitForCall(org, id, finished);
    expect(ended.answeredBy).toBe('human');
    expect(ended.analysis.structuredData).toEqual(BUILT);
    expect(ended.analysis.success).toBe(true);
    expect(typeof ended.analysis.summary).toBe('string');
    const events = await eventsOf(driver.t, id);
    expect(events.find((e) => e.type === 'call.ended')!.data.analysis).toEqual(ended.analysis);
  });

  flow('keyterms', "keyterms: the case's terms, one per line, reach the transcriber (Deepgram's keyterm)", async () => {
    const id = await call('+14155550174', await createCase({ keyterms: 'Acme Dental\n\n  Zyrtec  \n' }));
    const { assistant } = await driver.createBody!(id);
    expect(assistant?.transcriber).toMatchObject({ provider: 'deepgram', keyterm: ['Acme Dental', 'Zyrtec'] });
    await driver.answerHuman(org, id);
    expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended' });
  });

  // Only a real model can get the structured data wrong.
  flow(
    'undetected-bad-analysis',
    'analysis: structured data that does not fit the schema is stored as null',
    async () => {
      const caseId = await createCase({ analysis: { structuredDataSchema: SCHEMA } });
      const id = await call('+14155550172', caseId);
      await driver.answerHuman(org, id, { slot: 12, confirmed: 'yes' });
      const ended = await waitForCall(org, id, finished);
      expect(ended.analysis).toMatchObject({ structuredData: null, summary: 'The customer confirmed.' });
    },
  );

  it('a call without an analysis plan carries analysis null', async () => {
    const id = await call('+14155550173', await createCase({}));
    await driver.answerHuman(org, id);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({ analysis: null, answeredBy: 'human' });
  });
});
