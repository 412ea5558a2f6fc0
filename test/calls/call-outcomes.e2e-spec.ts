import { allEntries, startCampaign, waitForCampaign } from '../dialer/campaign-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, waitForCall, finished } from './call-fixtures';

/**
 * The bounds of voicemail policies and analysis plans (docs/tools.md), each refusal a 400 naming the field, and
 * the campaign side: the most specific policy wins, and `answeredBy` / `success` are counted beside `outcomes`.
 */
describe('voicemail policies and post-call analysis: bounds, precedence, campaign counts', () => {
  let t: TestApp;
  let org: CallsOrg;

  beforeAll(async () => {
    t = await startTestApp({ env: { SIMULATOR_RING_MS: '50', SIMULATOR_CALL_MS: '400' } });
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  const schemaWith = (n: number) => ({
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])),
  });

  async function expect400(path: string, body: Record<string, unknown>, field: string) {
    const res = await org.api.post(path, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
    return res;
  }

  const caseBody = (extra: Record<string, unknown>) => ({ title: 'Bounds', prompt: 'Be brief.', ...extra });

  it('an analysis schema of 50 properties is accepted, 51 is a 400 naming analysis.structuredDataSchema', async () => {
    const ok = await org.api.post('/api/v1/cases', caseBody({ analysis: { structuredDataSchema: schemaWith(50) } }));
    expect(ok.status).toBe(201);
    expect(ok.body.data.analysis).toEqual({
      summary: true,
      structuredDataSchema: schemaWith(50),
      successCriteria: null,
    });
    const res = await expect400(
      '/api/v1/cases',
      caseBody({ analysis: { structuredDataSchema: schemaWith(51) } }),
      'analysis.structuredDataSchema',
    );
    expect(res.body.error.message).toContain('at most 50 properties');
  });

  it('an analysis schema over 16 KB, not an object schema, or not compiling is a 400', async () => {
    const big = { type: 'object', description: 'x'.repeat(16 * 1024) };
    expect(
      (
        await expect400(
          '/api/v1/cases',
          caseBody({ analysis: { structuredDataSchema: big } }),
          'analysis.structuredDataSchema',
        )
      ).body.error.message,
    ).toContain('16384 bytes');
    await expect400(
      '/api/v1/cases',
      caseBody({ analysis: { structuredDataSchema: { type: 'string' } } }),
      'analysis.structuredDataSchema',
    );
    const broken = { type: 'object', properties: { a: { type: 'no-such-type' } } };
    const res = await expect400(
      '/api/v1/cases',
      caseBody({ analysis: { structuredDataSchema: broken } }),
      'analysis.structuredDataSchema',
    );
    expect(res.body.error.message).toContain('does not compile');
    await expect400(
      '/api/v1/cases',
      caseBody({ analysis: { successCriteria: 'x'.repeat(2001) } }),
      'analysis.successCriteria',
    );
  });

  it('a voicemail message: required with leave-message, 1,000 characters accepted, 1,001 refused', async () => {
    await expect400('/api/v1/cases', caseBody({ voicemail: { action: 'leave-message' } }), 'voicemail.message');
    await expect400('/api/v1/cases', caseBody({ voicemail: { action: 'shout' } }), 'voicemail.action');
    const long = { action: 'leave-message', message: 'x'.repeat(1001) };
    await expect400('/api/v1/cases', caseBody({ voicemail: long }), 'voicemail.message');
    const fits = await org.api.post('/api/v1/cases', caseBody({ voicemail: { ...long, message: 'x'.repeat(1000) } }));
    expect(fits.status).toBe(201);
    expect(fits.body.data.voicemail).toEqual({ detect: true, action: 'leave-message', message: 'x'.repeat(1000) });
    await expect400(
      '/api/v1/campaigns',
      { name: 'c', from: org.from, audience: { rows: [{ to: '+14155550101' }] }, voicemail: long },
      'voicemail.message',
    );
  });

  it('a voicemail message over 1,000 characters once rendered is a 400 naming voicemail.message on POST /calls', async () => {
    const created = await org.api.post(
      '/api/v1/cases',
      caseBody({ voicemail: { action: 'leave-message', message: `${'x'.repeat(990)}{{name}}` } }),
    );
    const caseId = created.body.data.id;
    const to = '+14155550107';
    const ok = await org.api.post('/api/v1/calls', {
      to,
      from: org.from,
      caseId,
      variableValues: { name: 'y'.repeat(10) },
    });
    expect(ok.status).toBe(201);
    const res = await org.api.post('/api/v1/calls', {
      to,
      from: org.from,
      caseId,
      variableValues: { name: 'y'.repeat(11) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('voicemail.message');
  });

  it("the outbound assistant's policy applies when the case sets none; the case's wins over it", async () => {
    const assistant = await org.api.post('/api/v1/assistants/outbound', {
      name: 'Leaves messages',
      voice: { provider: '11labs', voiceId: 'v1' },
      model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 },
      voicemail: { action: 'leave-message', message: 'From the assistant.' },
    });
    expect(assistant.status).toBe(201);
    expect(assistant.body.data.voicemail).toEqual({
      detect: true,
      action: 'leave-message',
      message: 'From the assistant.',
    });
    const assistantConfigId = assistant.body.data.id;
    const plain = (await org.api.post('/api/v1/cases', caseBody({}))).body.data.id;
    const own = (
      await org.api.post(
        '/api/v1/cases',
        caseBody({ voicemail: { action: 'leave-message', message: 'From the case.' } }),
      )
    ).body.data.id;
    const said = async (caseId: string) => {
      const res = await org.api.post('/api/v1/calls', {
        to: '+14155550117',
        from: org.from,
        caseId,
        assistantConfigId,
      });
      const call = await waitForCall(org, res.body.data.id, finished);
      // The last assistant line is the voicemail message left (the first message came before the beep).
      return call.transcript.filter((m: { role: string }) => m.role === 'assistant').at(-1).content;
    };
    expect(await said(plain)).toBe('From the assistant.');
    expect(await said(own)).toBe('From the case.');
  });

  it("a campaign's policy wins over its case's; answeredBy and success are counted beside outcomes", async () => {
    const caseId = (
      await org.api.post(
        '/api/v1/cases',
        caseBody({
          voicemail: { action: 'leave-message', message: 'From the case.' },
          analysis: { successCriteria: 'Talked.' },
        }),
      )
    ).body.data.id;
    const id = await startCampaign(org, {
      caseId,
      audience: { rows: [{ to: '+14155550121' }, { to: '+14155550122' }, { to: '+14155550127' }] },
      voicemail: { action: 'leave-message', message: 'From the campaign.' },
    });
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed');
    expect(done.voicemail).toEqual({ detect: true, action: 'leave-message', message: 'From the campaign.' });
    expect(done.outcomes).toEqual({ 'customer-ended-call': 2, 'voicemail-reached': 1 });
    expect(done.answeredBy).toEqual({ human: 2, voicemail: 1 });
    expect(done.success).toEqual({ true: 2, false: 1 });
    const machine = (await allEntries(org, id)).find((e) => e.to === '+14155550127');
    const call = (await org.api.get(`/api/v1/calls/${machine.attempts[0].callId}`)).body.data;
    expect(call.transcript.at(-1)).toMatchObject({ role: 'assistant', content: 'From the campaign.' });
  });
});
