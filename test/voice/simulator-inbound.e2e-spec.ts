import { TestApp, startTestApp } from '../support/test-app';
import { eventsOf, finished, insertPrompt, waitForCall } from '../calls/call-fixtures';
import { VoiceOrg, voiceOrg } from './voice-fixtures';

describe('voice simulator: inbound calls from the admin row (docs/contracts/simulator.md, docs/contracts/admin-api.md)', () => {
  let t: TestApp;
  let org: VoiceOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await voiceOrg(t, 0);
    const promptId = await insertPrompt(t, org.id, 'Reception prompt');
    await t.admin.post(`/admin/v1/organizations/${org.id}/inbound-assistants`, {
      name: 'Desk',
      systemPromptId: promptId,
    });
  });
  afterAll(() => t?.close());

  it('an inbound call to a number ending in 9 is still answered, recorded inbound and billed inbound_call', async () => {
    const res = await t.admin.post('/admin/v1/simulator/inbound-calls', { to: org.from, from: '+14155550199' });
    expect(res.status).toBe(201);
    const call = await waitForCall(org, res.body.data.id, finished);
    expect(call).toMatchObject({
      status: 'ended',
      direction: 'inbound',
      callFrom: org.from,
      callTo: '+14155550199',
      endedReason: 'customer-ended-call',
      resultStatus: 'Answered',
    });
    expect(call.transcript[0]).toMatchObject({ role: 'system', content: 'Reception prompt' });
    expect((await eventsOf(t, call.id)).map((e) => e.type)).toEqual(['call.ended']);
    const history = await org.api.get('/api/v1/usage/history');
    expect(history.body.data.map((r: any) => r.type)).toContain('inbound_call');
  });

  it('a number of no organization is 422 INVALID_PHONE; a bad number is 400', async () => {
    const unknown = await t.admin.post('/admin/v1/simulator/inbound-calls', {
      to: '+14155550000',
      from: '+14155550199',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('INVALID_PHONE');
    const bad = await t.admin.post('/admin/v1/simulator/inbound-calls', { to: 'x', from: '+14155550199' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('to');
  });

  it('is admin-only', async () => {
    expect(
      (await t.anonymous.post('/admin/v1/simulator/inbound-calls', { to: org.from, from: '+14155550199' })).status,
    ).toBe(401);
  });
});
