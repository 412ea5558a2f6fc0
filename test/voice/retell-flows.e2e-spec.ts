import { sign } from 'retell-sdk';
import type { Retell } from 'retell-sdk';
import { eventsOf, finished, insertPrompt, waitForCall } from '../calls/call-fixtures';
import type { TestApp } from '../support/test-app';
import { ToolReceiver } from '../tools/support/tool-receiver';
import { FakeRetell, RETELL_KEY } from './fake-retell';
import { retellOrg, startWithRetell } from './retell-fixtures';
import type { VoiceOrg } from './voice-fixtures';

/**
 * Calls on Retell end to end (docs/providers.md, "Retell"), against the strict fake Retell: what we send is what
 * retell-sdk types, what Retell sends us is signed as Retell signs it and may come late, twice, out of order or
 * not at all. The flows every platform plays (tools and transfers, live end, lost report, inbound, concurrency,
 * voicemail, analysis) run over all three in voice-flows.e2e-spec.ts and call-outcomes-scenario.e2e-spec.ts.
 */
describe('calls on Retell', () => {
  let fake: FakeRetell;
  let t: TestApp;
  let org: VoiceOrg;
  let receiver: ToolReceiver;

  beforeAll(async () => {
    receiver = await new ToolReceiver().start();
    ({ fake, t } = await startWithRetell({
      WEBHOOK_ALLOW_INSECURE: 'true',
      RETELL_REPORT_GRACE_MS: '300',
      RETELL_ANALYSIS_GRACE_MS: '300',
      RETELL_MAX_CONCURRENT_CALLS: '2',
      PLATFORM_WAIT_RETRY_MS: '200',
    }));
  });
  beforeEach(async () => {
    org = await retellOrg(t, fake);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await receiver?.stop();
  });

  const admin = async (path: string, body: Record<string, unknown>) => {
    const res = await t.admin.post(path, body);
    if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };

  async function place(to: string, extra: Record<string, unknown> = {}) {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from, ...extra });
    expect(res.status).toBe(201);
    expect(res.body.data.platform).toBe('retell');
    const id: string = res.body.data.id;
    const { request, retellCallId } = await fake.createCallFor(id);
    return { id, retellCallId, body: request.body as Retell.CallCreatePhoneCallParams };
  }

  /** POSTs `body` to one of our Retell endpoints, signed as Retell signs (or with the given header). */
  const post = async (path: string, body: unknown, signature?: string) => {
    const raw = JSON.stringify(body);
    return fetch(`${t.baseUrl}/platform/retell/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-retell-signature': signature ?? (await sign(raw, RETELL_KEY)) },
      body: raw,
    });
  };

  it('imports the number from Retell: its id is the number, its inbound webhook ours; absent is 422 INVALID_PHONE', async () => {
    expect(org.phoneNumberId).toBe(org.from);
    expect(fake.numbers.get(org.from)?.inbound_webhook_url).toBe('https://calls.example.test/platform/retell/inbound');
    const absent = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
      number: '+14155550000',
      platform: 'retell',
    });
    expect(absent.status).toBe(422);
    expect(absent.body.error.code).toBe('INVALID_PHONE');
    const otherId = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
      number: '+14155550001',
      platform: 'retell',
      providerId: 'pn-1',
    });
    expect(otherId.status).toBe(400);
    expect(otherId.body.error.details).toEqual([expect.objectContaining({ field: 'providerId' })]);
  });

  it("places a case's calls with one LLM and agent (tools, transfer), its figures on a transfer", async () => {
    const tools = `/admin/v1/organizations/${org.id}/tools`;
    const fn = await admin(tools, {
      type: 'function',
      name: 'lookup_order',
      description: 'Looks an order up',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      url: receiver.on('/retell-lookup', { result: { status: 'shipped' } }),
      timeoutSeconds: 5,
      messages: { start: 'One moment.', failed: 'I could not look that up.' },
    });
    const transfer = await admin(tools, {
      type: 'transfer',
      name: 'to_desk',
      destinations: [{ number: '+14155550190', mode: 'cold' }],
    });
    const hangUp = await admin(tools, { type: 'end-call', name: 'hang_up' });
    const kase = (
      await org.api.post('/api/v1/cases', {
        title: 'Orders',
        prompt: 'Help {{name}} with the order.',
        firstMessage: 'Hello {{name}}',
        variables: [{ name: 'name', source: 'custom' }],
      })
    ).body.data;
    await admin(`/admin/v1/cases/${kase.id}/tools`, { toolIds: [fn.id, transfer.id, hangUp.id] });

    const first = await place('+14155550181', { caseId: kase.id, variableValues: { name: 'Ana' } });
    const second = await place('+14155550182', { caseId: kase.id, variableValues: { name: 'Bo' } });
    // One LLM and one agent for the case, reused: each call brings its own words as dynamic variables.
    expect(fake.llms.size).toBe(fake.agents.size);
    expect(first.body.override_agent_id).toBe(second.body.override_agent_id);
    expect(first.body).toMatchObject({
      from_number: org.from,
      to_number: '+14155550181',
      metadata: { callId: first.id },
      retell_llm_dynamic_variables: {
        name: 'Ana',
        vc_first_message: 'Hello Ana',
        vc_system_prompt: 'Help Ana with the order.',
      },
    });
    const llm = fake.llmOf(first.retellCallId);
    expect(llm.general_tools?.map((tool) => [tool.type, tool.name])).toEqual([
      ['custom', 'lookup_order'],
      ['transfer_call', 'to_desk'],
      ['end_call', 'hang_up'],
    ]);
    const agent = fake.agents.get(first.body.override_agent_id!)!;
    expect(agent.webhook_url).toBe('https://calls.example.test/platform/retell/events');

    // The function tool and the transfer are played on every platform in voice-flows.e2e-spec.ts; here, what
    // Retell's own figures become: forwarding while the transfer runs, its cost in USD, the transcript.
    await fake.started(first.retellCallId);
    await waitForCall(org, first.id, (c) => c.apiCallStatus === 'in-progress' && c.apiCallId === first.retellCallId);
    await fake.event(first.retellCallId, 'transfer_started');
    await waitForCall(org, first.id, (c) => c.apiCallStatus === 'forwarding');
    await fake.ended(first.retellCallId, {
      disconnection_reason: 'call_transfer',
      transfer_destination: '+14155550190',
      duration_ms: 20_000,
      call_cost: { combined_cost: 7, product_costs: [], total_duration_seconds: 20, total_duration_unit_price: 0.35 },
      transcript_object: [{ role: 'agent', content: 'Hello Ana', words: [] }],
    });
    const ended = await waitForCall(org, first.id, finished);
    expect(ended).toMatchObject({
      status: 'ended',
      endedReason: 'assistant-forwarded-call',
      providerCost: 0.07,
      durationSeconds: 20,
      platform: 'retell',
      transfer: { to: '+14155550190', mode: 'cold', status: 'completed' },
    });
    expect(ended.transcript).toEqual([expect.objectContaining({ role: 'assistant', content: 'Hello Ana' })]);
    await fake.answerHuman(second.retellCallId);
    await waitForCall(org, second.id, finished);
  });

  it('refuses events without a valid signature (401) and applies each event once, in any order', async () => {
    const { id, retellCallId } = await place('+14155550183');
    const call = fake.calls.get(retellCallId)!;
    const body = { event: 'call_started', call };
    for (const signature of ['', 'v=1,d=00', await sign(JSON.stringify({ other: true }), RETELL_KEY)]) {
      expect((await post('events', body, signature)).status).toBe(401);
    }
    expect((await post('events', body, await sign(JSON.stringify(body), 'another-key'))).status).toBe(401);
    // call_ended overtakes call_started, and both come twice.
    fake.update(retellCallId, {
      call_status: 'ended',
      disconnection_reason: 'agent_hangup',
      duration_ms: 12_000,
      start_timestamp: Date.now(),
    });
    const ended = fake.calls.get(retellCallId)!;
    for (const event of ['call_ended', 'call_ended', 'call_started', 'call_started']) {
      expect((await post('events', { event, call: ended })).status).toBe(204);
    }
    expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended', endedReason: 'agent_hangup' });
    const types = (await eventsOf(t, id)).map((e) => e.type);
    expect(types).toEqual(['call.started', 'call.ended']);
  });

  it('a call whose analysis is late ends without it after the grace, and gains it when it comes', async () => {
    const kase = (
      await org.api.post('/api/v1/cases', { title: 'Late', prompt: 'Be brief.', analysis: { summary: true } })
    ).body.data;
    const { id, retellCallId } = await place('+14155550185', { caseId: kase.id });
    await fake.started(retellCallId);
    await fake.ended(retellCallId, { disconnection_reason: 'user_hangup', duration_ms: 8_000 });
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({ status: 'ended', analysis: { summary: null, structuredData: null, success: null } });
    expect((await eventsOf(t, id)).find((e) => e.type === 'call.ended')!.data.analysis).toEqual(ended.analysis);
    await fake.analyzed(retellCallId, { call_summary: 'Late but here.', call_successful: true });
    expect(await waitForCall(org, id, (c) => c.analysis.summary !== null)).toMatchObject({
      analysis: { summary: 'Late but here.', success: true, structuredData: null },
    });
    // Once: a repeated or different later analysis changes nothing.
    await fake.analyzed(retellCallId, { call_summary: 'Another one.' });
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.analysis.summary).toBe('Late but here.');
  });

  it('fails a call Retell refuses (4xx) with its reason; a 429 makes it wait and go out later', async () => {
    fake.failNext(400);
    const refused = await org.api.post('/api/v1/calls', { to: '+14155550186', from: org.from });
    expect(await waitForCall(org, refused.body.data.id, finished)).toMatchObject({
      status: 'error',
      endedReason: expect.stringMatching(/^retell-rejected: 400/),
    });
    fake.failNext(429);
    const waited = await org.api.post('/api/v1/calls', { to: '+14155550187', from: org.from });
    const { retellCallId } = await fake.createCallFor(waited.body.data.id, 20_000);
    await fake.answerHuman(retellCallId);
    expect(await waitForCall(org, waited.body.data.id, finished)).toMatchObject({ status: 'ended' });
  });

  it('a 500 that hid a placed call: the call waits, list-calls finds it by our id, and it is never placed twice', async () => {
    fake.failAfterPlacing(500);
    const res = await org.api.post('/api/v1/calls', { to: '+14155550188', from: org.from });
    const id: string = res.body.data.id;
    const call = await waitForCall(org, id, (c) => c.status === 'processing' && c.apiCallId !== null, 30_000);
    const posts = fake.createCalls().filter((r) => (r.body as { metadata: { callId: string } }).metadata.callId === id);
    expect(posts).toHaveLength(1);
    expect(call.apiCallId).toBe(posts[0].placedAnyway);
    expect(call.platformAttempts).toEqual([
      { platform: 'retell', at: expect.any(String), error: 'retell-unavailable: 500 failure 500' },
    ]);
    const [search] = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v3/list-calls');
    expect(search.body).toEqual({
      filter_criteria: { metadata: [{ key: 'callId', op: 'eq', type: 'string', value: id }] },
      limit: 50,
    });
    await fake.answerHuman(call.apiCallId);
    expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended', endedReason: 'user_hangup' });
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });

  it('Retell down, the number without a fallback: the call waits (never error), then goes out once Retell is back', async () => {
    await fake.down();
    const res = await org.api.post('/api/v1/calls', { to: '+14155550189', from: org.from });
    const id: string = res.body.data.id;
    const waiting = await waitForCall(org, id, (c) => c.status === 'new' && c.platformAttempts.length > 0, 30_000);
    expect(waiting.platformAttempts[0]).toMatchObject({
      platform: 'retell',
      error: expect.stringMatching(/^retell-unavailable/),
    });
    await fake.up();
    const { retellCallId } = await fake.createCallFor(id, 30_000);
    await fake.answerHuman(retellCallId);
    expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended', platform: 'retell' });
    const posts = fake.createCalls().filter((r) => (r.body as { metadata: { callId: string } }).metadata.callId === id);
    expect(posts).toHaveLength(1);
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });

  it('never has more live Retell calls than RETELL_MAX_CONCURRENT_CALLS; the others wait, none fails', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await org.api.post('/api/v1/calls', { to: `+1415555019${i}`, from: org.from });
      ids.push(res.body.data.id);
    }
    const done = new Set<string>();
    while (done.size < ids.length) {
      for (const id of ids.filter((i) => !done.has(i))) {
        const placed = fake
          .createCalls()
          .find((r) => r.accepted && (r.body as { metadata: { callId: string } }).metadata.callId === id);
        if (!placed) continue;
        expect(fake.liveCalls()).toBeLessThanOrEqual(2);
        await fake.answerHuman(placed.accepted!);
        await waitForCall(org, id, finished);
        done.add(id);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const statuses = await Promise.all(
      ids.map(async (id) => (await org.api.get(`/api/v1/calls/${id}`)).body.data.status),
    );
    expect(statuses).toEqual(['ended', 'ended', 'ended', 'ended']);
    expect(fake.peakLive).toBeLessThanOrEqual(2);
  });

  it("answers an inbound call with the organization's inbound agent and records it inbound when it starts", async () => {
    await admin(`/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'receptionist',
      tier: 1,
      quantity: 1,
    });
    const prompt = await insertPrompt(t, org.id, 'You are the front desk of Acme.');
    await admin(`/admin/v1/organizations/${org.id}/inbound-assistants`, { name: 'Desk', systemPromptId: prompt });
    const { retellCallId, answer } = await fake.inbound(org.from, '+14155550177');
    expect(answer).toMatchObject({
      call_inbound: {
        override_agent_id: expect.any(String),
        dynamic_variables: {
          vc_system_prompt: 'You are the front desk of Acme.',
          vc_first_message: expect.any(String),
        },
      },
    });
    // How the call is then recorded inbound is played on every platform in voice-flows.e2e-spec.ts.
    expect(retellCallId).toEqual(expect.any(String));
    // A number that is nobody's is given no agent (Retell then hangs up, or uses the number's own).
    const nobody = await post('inbound', {
      event: 'call_inbound',
      call_inbound: { from_number: '+14155550177', to_number: '+14155550009' },
    });
    expect(await nobody.json()).toEqual({ call_inbound: {} });
  });
});
