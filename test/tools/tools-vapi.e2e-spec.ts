import type { Vapi } from '@vapi-ai/server-sdk';
import { finished, waitForCall } from '../calls/call-fixtures';
import { VAPI_WIRE, expectCapturedFixture } from '../support/captured-fixture';
import { TestApp } from '../support/test-app';
import { FakeVapi } from '../voice/fake-vapi';
import { captured } from '../voice/fixtures/create-call-tools.fixture';
import { VapiSchema } from '../voice/vapi-schema';
import { VoiceOrg, startWithVapi, voiceOrg } from '../voice/voice-fixtures';
import { ToolReceiver, signedBy } from './support/tool-receiver';

/**
 * Tools on Vapi (docs/providers.md, "Tools"): the call's tools reach POST /call as Vapi's SDK types them (checked
 * by the strict fake and committed as a fixture for typecheck:providers); Vapi's `tool-calls` messages are
 * proxied to the customer's URL, signed, and answered with the customer's result; a transfer ends the call
 * `assistant-forwarded-call` with `transfer`.
 */
describe('tools on Vapi', () => {
  let t: TestApp;
  let fake: FakeVapi;
  let org: VoiceOrg;
  let receiver: ToolReceiver;

  beforeAll(async () => {
    receiver = await new ToolReceiver().start();
    ({ fake, t } = await startWithVapi({ WEBHOOK_ALLOW_INSECURE: 'true' }));
  });
  // Each scenario has its own organization, so each can name its tools alike.
  beforeEach(async () => {
    // A Twilio number: the one carrier Vapi makes warm transfers on (the transfer tool below is warm).
    org = await voiceOrg(t, 1000, fake, 'twilio');
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

  async function caseWithTools(url: string) {
    const tools = `/admin/v1/organizations/${org.id}/tools`;
    const fn = await admin(tools, {
      type: 'function',
      name: 'lookup_order',
      description: 'Looks an order up',
      parameters: {
        type: 'object',
        properties: {
          orderId: { type: 'string', example: 'A-17', description: 'The order' },
          rush: { type: 'boolean' },
        },
        required: ['orderId'],
      },
      url,
      timeoutSeconds: 5,
      messages: { start: 'One moment.', failed: 'I could not look that up.' },
    });
    const transfer = await admin(tools, {
      type: 'transfer',
      name: 'to_desk',
      destinations: [{ number: '+14155550190', mode: 'warm', message: 'Connecting you.' }],
    });
    const hangUp = await admin(tools, { type: 'end-call', name: 'hang_up' });
    const platform = await admin(tools, { type: 'platform', providerToolId: 'vapi-tool-1' });
    const kase = (await org.api.post('/api/v1/cases', { title: 'Tools', prompt: 'Help.' })).body.data;
    await admin(`/admin/v1/cases/${kase.id}/tools`, {
      toolIds: [fn.id, transfer.id, hangUp.id, platform.id],
      integrationToolIds: ['vapi-tool-2'],
    });
    return { caseId: kase.id as string, fn };
  }

  async function placed(to: string, caseId: string) {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from, caseId });
    expect(res.status).toBe(201);
    const { request, vapiCallId } = await fake.createCallFor(res.body.data.id);
    return { id: res.body.data.id as string, body: request.body!, vapiCallId };
  }

  it("sends the case's tools as Vapi's SDK types them, and answers tool-calls with the customer's result", async () => {
    const { caseId, fn } = await caseWithTools(receiver.on('/vapi-lookup', { result: { status: 'shipped' } }));
    const { id, body, vapiCallId } = await placed('+14155550171', caseId);

    expect(VapiSchema.get().validate('CreateCallDto', body)).toEqual([]);
    const model = body.assistant!.model as Vapi.CreateAssistantDtoModel & { tools: Vapi.OpenAiModelToolsItem[] };
    expect(model.toolIds).toEqual(['vapi-tool-1', 'vapi-tool-2']);
    expect(model.tools.map((tool) => tool.type)).toEqual(['function', 'transferCall', 'endCall']);
    // The warm transfer: the caller hears the destination's message, the person taking the call Vapi's
    // TransferPlan.message (the default notice: the destination has no handoffMessage).
    const transfer = model.tools[1] as Vapi.OpenAiModelToolsItem.TransferCall;
    expect(transfer.destinations?.[0]).toMatchObject({
      message: 'Connecting you.',
      transferPlan: { mode: 'warm-transfer-say-message', message: expect.stringContaining('transferred') },
    });
    // Vapi sends tool-calls only to a call that asks for them.
    expect(body.assistant!.serverMessages).toContain('tool-calls');
    const masked = { ...body, phoneNumberId: 'pn-1', assistant: { ...body.assistant, metadata: {} } };
    await expectCapturedFixture(
      `${__dirname}/../voice/fixtures/create-call-tools.fixture.ts`,
      VAPI_WIRE('CreateCallDto'),
      captured,
      masked,
    );

    await fake.status(vapiCallId, 'ringing');
    await fake.status(vapiCallId, 'in-progress');
    const results = await fake.callTool(vapiCallId, 'lookup_order', { orderId: 'B-2' });
    expect(results).toEqual([
      { toolCallId: expect.stringMatching(/^call_/), name: 'lookup_order', result: '{"status":"shipped"}' },
    ]);
    const [request] = receiver.requests('/vapi-lookup');
    expect(signedBy(request, fn.secret)).toBe(true);
    expect(request.body).toMatchObject({
      toolCallId: results[0].toolCallId,
      name: 'lookup_order',
      arguments: { orderId: 'B-2' },
      call: { id, direction: 'outbound', to: '+14155550171', from: org.from, caseId, livemode: true },
    });

    await fake.end(vapiCallId, {
      endedReason: 'customer-ended-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:00:30.000Z',
    });
    const ended = await waitForCall(org, id, finished);
    expect(ended.toolCalls).toEqual([
      expect.objectContaining({ id: results[0].toolCallId, result: { status: 'shipped' }, status: 'succeeded' }),
    ]);
  });

  it("a failing tool is answered with the tool's failure message", async () => {
    const { caseId } = await caseWithTools(receiver.on('/vapi-broken', { status: 500 }));
    const { id, vapiCallId } = await placed('+14155550172', caseId);
    await fake.status(vapiCallId, 'in-progress');
    const results = await fake.callTool(vapiCallId, 'lookup_order', { orderId: 'C-3' });
    expect(results).toEqual([expect.objectContaining({ result: 'I could not look that up.' })]);
    const live = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
    expect(live.toolCalls).toEqual([expect.objectContaining({ status: 'failed', result: null })]);
  });

  it('records at most 20 tool calls per call: the 21st is answered as failed without calling the tool', async () => {
    const path = '/vapi-many';
    const { caseId } = await caseWithTools(receiver.on(path, { result: 'fine' }));
    const { id, vapiCallId } = await placed('+14155550174', caseId);
    await fake.status(vapiCallId, 'in-progress');
    for (let i = 0; i < 20; i++) {
      expect(await fake.callTool(vapiCallId, 'lookup_order', { orderId: `N-${i}` })).toEqual([
        expect.objectContaining({ result: 'fine' }),
      ]);
    }
    const before = receiver.requests(path).length;
    const over = await fake.callTool(vapiCallId, 'lookup_order', { orderId: 'N-20' });
    expect(over).toEqual([expect.objectContaining({ result: 'I could not look that up.' })]);
    expect(receiver.requests(path)).toHaveLength(before);
    const live = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
    expect(live.toolCalls).toHaveLength(20);
    expect(new Set(live.toolCalls.map((c: { id: string }) => c.id)).size).toBe(20);
  });

  it("warm transfers are refused (422) on a number Twilio does not carry; cold ones and a handoffMessage are Vapi's", async () => {
    const tools = `/admin/v1/organizations/${org.id}/tools`;
    const warm = await admin(tools, {
      type: 'transfer',
      name: 'warm_desk',
      destinations: [{ number: '+14155550191', mode: 'warm', handoffMessage: 'A customer about an order.' }],
    });
    const refusedCold = await t.admin.post(tools, {
      type: 'transfer',
      name: 'cold_briefed',
      destinations: [{ number: '+14155550193', mode: 'cold', handoffMessage: 'Nobody would hear this.' }],
    });
    expect(refusedCold.status).toBe(400);
    expect(refusedCold.body.error.details[0].field).toBe('destinations.0.handoffMessage');
    const caseOf = async (toolIds: string[]) => {
      const kase = (await org.api.post('/api/v1/cases', { title: 'Transfers', prompt: 'Help.' })).body.data;
      await admin(`/admin/v1/cases/${kase.id}/tools`, { toolIds });
      return kase.id as string;
    };
    const warmCase = await caseOf([warm.id]);

    // On this organization's Twilio number the warm transfer goes out with its handoff message.
    const { body } = await placed('+14155550175', warmCase);
    const model = body.assistant!.model as Vapi.CreateAssistantDtoModel & { tools: Vapi.OpenAiModelToolsItem[] };
    expect((model.tools[0] as Vapi.OpenAiModelToolsItem.TransferCall).destinations?.[0]).toMatchObject({
      transferPlan: { mode: 'warm-transfer-say-message', message: 'A customer about an order.' },
    });

    // A number Vapi itself carries: the warm case is refused before anything is stored, the cold one is placed.
    const other = await voiceOrg(t, 1000, fake, 'vapi');
    const otherTools = `/admin/v1/organizations/${other.id}/tools`;
    const otherWarm = await admin(otherTools, {
      type: 'transfer',
      name: 'warm_desk',
      destinations: [{ number: '+14155550191', mode: 'warm' }],
    });
    const otherCold = await admin(otherTools, {
      type: 'transfer',
      name: 'cold_desk',
      destinations: [{ number: '+14155550192', mode: 'cold' }],
    });
    const otherCase = async (toolIds: string[]) => {
      const kase = (await other.api.post('/api/v1/cases', { title: 'Other', prompt: 'Help.' })).body.data;
      await admin(`/admin/v1/cases/${kase.id}/tools`, { toolIds });
      return kase.id as string;
    };
    const before = fake.createCalls().length;
    const refused = await other.api.post('/api/v1/calls', {
      to: '+14155550176',
      from: other.from,
      caseId: await otherCase([otherWarm.id]),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ field: 'caseId' })],
    });
    expect(refused.body.error.message).toContain('Twilio');
    expect(
      (await t.db.query('SELECT count(*)::int AS n FROM calls WHERE organization_id = $1', [other.id])).rows[0].n,
    ).toBe(0);
    expect(fake.createCalls()).toHaveLength(before);
    const coldCall = await other.api.post('/api/v1/calls', {
      to: '+14155550177',
      from: other.from,
      caseId: await otherCase([otherCold.id]),
    });
    expect(coldCall.status).toBe(201);
    const { request } = await fake.createCallFor(coldCall.body.data.id);
    const coldModel = request.body!.assistant!.model as { tools: Vapi.OpenAiModelToolsItem[] };
    expect((coldModel.tools[0] as Vapi.OpenAiModelToolsItem.TransferCall).destinations?.[0]).toMatchObject({
      transferPlan: { mode: 'blind-transfer' },
    });
  });

  it('sends Vapi only the transfer destinations the destination rules allow when the call is placed', async () => {
    const tools = `/admin/v1/organizations/${org.id}/tools`;
    const split = await admin(tools, {
      type: 'transfer',
      name: 'to_front',
      destinations: [
        { number: '+14155550192', mode: 'cold' },
        { number: '+14155550193', mode: 'cold' },
      ],
    });
    const lone = await admin(tools, {
      type: 'transfer',
      name: 'to_back',
      destinations: [{ number: '+14155550194', mode: 'cold' }],
    });
    const kase = (await org.api.post('/api/v1/cases', { title: 'Desk', prompt: 'Help.' })).body.data;
    await admin(`/admin/v1/cases/${kase.id}/tools`, { toolIds: [split.id, lone.id] });
    const scheduledAt = new Date(Date.now() + 2000).toISOString();
    const res = await org.api.post('/api/v1/calls', {
      to: '+14155550174',
      from: org.from,
      caseId: kase.id,
      scheduledAt,
    });
    expect(res.status).toBe(201);
    // The rules change after the call was created with all three destinations (docs/contracts/destinations.md).
    const rules = await t.admin.put(`/admin/v1/organizations/${org.id}/destination-rules`, {
      blockedPrefixes: ['+14155550192', '+14155550194'],
    });
    expect(rules.status).toBe(200);

    const { request } = await fake.createCallFor(res.body.data.id);
    expect(VapiSchema.get().validate('CreateCallDto', request.body)).toEqual([]);
    const model = request.body!.assistant!.model as Vapi.CreateAssistantDtoModel & {
      tools: Vapi.OpenAiModelToolsItem[];
    };
    expect(model.tools).toEqual([
      expect.objectContaining({
        type: 'transferCall',
        destinations: [expect.objectContaining({ type: 'number', number: '+14155550193' })],
      }),
    ]);
    // No function tool, nothing for our server to answer: no tool-calls asked for.
    expect(request.body!.assistant!.serverMessages).not.toContain('tool-calls');
  });
});
