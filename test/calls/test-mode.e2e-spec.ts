import { FakeGraphApi } from '../messaging/fake-graph-api';
import { createAccount, userWrites } from '../messaging/messaging-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { FakeVapi } from '../voice/fake-vapi';
import { VoiceOrg, ledgerRowsOf, vapiEnv, voiceOrg } from '../voice/voice-fixtures';
import { startCampaign, waitForCampaign } from '../dialer/campaign-fixtures';
import { finished, waitForCall } from './call-fixtures';

/**
 * docs/contracts/modes.md: a `test` key never reaches a real provider, whatever VOICE_PROVIDER / MESSAGING_PROVIDER say,
 * and its data is marked and kept apart. Here both real providers are configured (against local fakes), so a
 * request reaching either fake is a test-mode call or message that escaped.
 */
describe('test mode: test keys run on the simulators, live keys on the configured providers', () => {
  let vapi: FakeVapi;
  let graph: FakeGraphApi;
  let t: TestApp;
  let org: VoiceOrg;
  let testKey: VoiceOrg['api'];

  beforeAll(async () => {
    vapi = await FakeVapi.start();
    graph = new FakeGraphApi();
    await graph.start();
    graph.grant('test-access-token', '1234567890', '102290129340398');
    t = await startTestApp({
      env: {
        ...vapiEnv(vapi.url),
        MESSAGING_PROVIDER: 'whatsapp',
        WHATSAPP_GRAPH_URL: `${graph.url}/v21.0`,
        WHATSAPP_ACCESS_TOKEN: 'test-access-token',
        WHATSAPP_APP_SECRET: 'test-app-secret',
        WHATSAPP_VERIFY_TOKEN: 'test-verify-token',
      },
    });
    org = await voiceOrg(t, 10);
    testKey = (await org.keyWith(['*'], { environment: 'test' })).api;
  });
  afterAll(async () => {
    await t?.close();
    await vapi?.close();
    await graph?.stop();
  });

  it('a test-key call never hits Vapi: the simulator plays it, it is marked test and bills no minute', async () => {
    const res = await testKey.post('/api/v1/calls', { to: '+14155550123', from: org.from });
    expect(res.status).toBe(201);
    const call = await waitForCall({ ...org, api: testKey }, res.body.data.id, finished);
    // The simulator's outcome for a last digit 0-6 (docs/contracts/simulator.md).
    expect(call).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call', resultStatus: 'Answered' });
    expect(vapi.requests).toEqual([]);
    const { rows } = await t.db.query('SELECT livemode FROM calls WHERE id = $1', [call.id]);
    expect(rows).toEqual([{ livemode: false }]);
    expect(await ledgerRowsOf(t, call.id)).toEqual([]);
    const reservations = await t.db.query('SELECT 1 FROM call_reservations WHERE call_id = $1', [call.id]);
    expect(reservations.rows).toEqual([]);
  });

  it('a live-key call goes to the configured provider (Vapi)', async () => {
    const res = await org.api.post('/api/v1/calls', { to: '+14155550124', from: org.from });
    expect(res.status).toBe(201);
    const { request } = await vapi.createCallFor(res.body.data.id);
    expect(request.body?.customer).toEqual({ number: '+14155550124' });
    const { rows } = await t.db.query('SELECT livemode FROM calls WHERE id = $1', [res.body.data.id]);
    expect(rows).toEqual([{ livemode: true }]);
  });

  it('lists keep test and live calls apart', async () => {
    const live = (await org.api.get('/api/v1/calls', { query: { limit: 100 } })).body.data;
    const test = (await testKey.get('/api/v1/calls', { query: { limit: 100 } })).body.data;
    const marks = await t.db.query('SELECT id, livemode FROM calls WHERE organization_id = $1', [org.id]);
    const liveIds = marks.rows.filter((r) => r.livemode).map((r) => r.id);
    const testIds = marks.rows.filter((r) => !r.livemode).map((r) => r.id);
    expect(liveIds.length).toBeGreaterThan(0);
    expect(testIds.length).toBeGreaterThan(0);
    expect(live.map((c: any) => c.id).sort()).toEqual(liveIds.sort());
    expect(test.map((c: any) => c.id).sort()).toEqual(testIds.sort());
  });

  it('a test call needs no minute: with the balance spent, the test key still calls and the live key is 402', async () => {
    const poor = await voiceOrg(t, 1);
    const poorTest = (await poor.keyWith(['*'], { environment: 'test' })).api;
    await t.admin.post(`/admin/v1/organizations/${poor.id}/minute-grants`, {
      mins: -1,
      type: 'admin_adjustment',
      description: 'spend the trial',
    });
    const live = await poor.api.post('/api/v1/calls', { to: '+14155550125', from: poor.from });
    expect(live.status).toBe(402);
    const test = await poorTest.post('/api/v1/calls', { to: '+14155550125', from: poor.from });
    expect(test.status).toBe(201);
    expect(await waitForCall({ ...poor, api: poorTest }, test.body.data.id, finished)).toMatchObject({
      status: 'ended',
    });
    expect(vapi.createCalls().some((r) => r.body?.customer?.number === '+14155550125')).toBe(false);
  });

  it('a test account’s message never reaches the WhatsApp Cloud API and is stored marked as test', async () => {
    const account = await createAccount(t, org.id, { phoneNumberId: '1234567890' });
    const testAccount = await createAccount(t, org.id, { phoneNumberId: '1234567899', livemode: false });
    const conversationId = await userWrites(t, account.id, '+14155550198');
    const testConversationId = await userWrites(t, testAccount.id, '+14155550198');
    const before = graph.requests.length;
    const res = await testKey.post('/api/v1/messaging/messages', {
      conversationId: testConversationId,
      type: 'text',
      text: 'Hi',
    });
    expect(res.status).toBe(201);
    expect(graph.requests.length).toBe(before);
    const { rows } = await t.db.query('SELECT livemode FROM messages WHERE id = $1', [res.body.data.messageId]);
    expect(rows).toEqual([{ livemode: false }]);
    // The live conversation is the other world's: the test key cannot send into it.
    const crossed = await testKey.post('/api/v1/messaging/messages', { conversationId, type: 'text', text: 'Hi' });
    expect(crossed.status).toBe(404);
    expect(graph.requests.length).toBe(before);

    const live = await org.api.post('/api/v1/messaging/messages', { conversationId, type: 'text', text: 'Hi' });
    expect(live.status).toBe(201);
    expect(graph.requests.length).toBe(before + 1);
  });
  it("a test key's campaign places test calls: never Vapi, no minute, not paused for want of minutes, listed apart", async () => {
    const poor = await voiceOrg(t, 1);
    const poorTest = (await poor.keyWith(['*'], { environment: 'test' })).api;
    await t.admin.post(`/admin/v1/organizations/${poor.id}/minute-grants`, {
      mins: -1,
      type: 'admin_adjustment',
      description: 'spend the trial',
    });
    const numbers = ['+14155550131', '+14155550132'];
    const id = await startCampaign({ ...poor, api: poorTest }, { audience: { rows: numbers.map((to) => ({ to })) } });
    const done = await waitForCampaign({ ...poor, api: poorTest }, id, (c) => c.status === 'completed');
    expect(done).toMatchObject({ counts: { total: 2, done: 2 } });
    expect((await t.db.query('SELECT livemode FROM campaigns WHERE id = $1', [id])).rows).toEqual([
      { livemode: false },
    ]);
    const { rows } = await t.db.query('SELECT livemode, status FROM calls WHERE campaign_id = $1', [id]);
    expect(rows).toEqual([
      { livemode: false, status: 'ended' },
      { livemode: false, status: 'ended' },
    ]);
    expect(vapi.createCalls().some((r) => numbers.includes(r.body?.customer?.number ?? ''))).toBe(false);
    const ledger = await t.db.query(
      'SELECT 1 FROM call_reservations WHERE call_id IN (SELECT id FROM calls WHERE campaign_id = $1)',
      [id],
    );
    expect(ledger.rows).toEqual([]);
    const liveList = (await poor.api.get('/api/v1/campaigns')).body.data.map((c: any) => c.id);
    const testList = (await poorTest.get('/api/v1/campaigns')).body.data.map((c: any) => c.id);
    expect(liveList).not.toContain(id);
    expect(testList).toContain(id);
  });
});
