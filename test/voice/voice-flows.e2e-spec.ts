import { eventsOf, finished, insertPrompt, waitForCall } from '../calls/call-fixtures';
import { ToolReceiver, signedBy } from '../tools/support/tool-receiver';
import { PLATFORMS, PlatformDriver, PlatformFlow, PlatformUnderTest } from './platform-drivers';
import type { VoiceOrg } from './voice-fixtures';

/**
 * The same call flows on every voice platform (docs/providers.md): outbound with a case's function tool and a
 * transfer (cold and warm), a live end, a lost report recovered, inbound, and the concurrency limit, played by
 * the simulator on its own and by the strict fakes of Vapi and Retell as each platform plays them (the driver,
 * platform-drivers.ts). Voicemail and post-call analysis run over the same drivers in
 * call-outcomes-scenario.e2e-spec.ts. A flow a platform cannot play is left out for it by its driver, which says
 * why.
 */
describe.each(PLATFORMS)('call flows on %s', (_, platform: PlatformUnderTest) => {
  let driver: PlatformDriver;
  let org: VoiceOrg;
  let receiver: ToolReceiver;

  beforeAll(async () => {
    receiver = await new ToolReceiver().start();
    driver = await platform.start({ WEBHOOK_ALLOW_INSECURE: 'true' });
  });
  // Each flow has its own organization: its own tools, limits and list of calls.
  beforeEach(async () => {
    org = await driver.newOrg();
  });
  afterAll(async () => {
    await driver?.close();
    await receiver?.stop();
  });

  /** A flow this platform plays; one it cannot is not registered for it (its driver says why). */
  const flow = (name: PlatformFlow | null, title: string, body: () => Promise<void>) => {
    if (!name || !platform.cannot[name]) it(title, body);
  };

  const admin = async (path: string, body: Record<string, unknown>) => {
    const res = await driver.t.admin.post(path, body);
    if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };

  async function call(to: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from, ...extra });
    expect(res.status).toBe(201);
    expect(res.body.data.platform).toBe(driver.platform);
    return res.body.data.id;
  }

  /** A case with a function tool (its argument's example is what the fakes' models send) and a transfer. */
  async function caseWithTools(path: string, destination: Record<string, unknown>) {
    const tools = `/admin/v1/organizations/${org.id}/tools`;
    const fn = await admin(tools, {
      type: 'function',
      name: 'lookup_order',
      description: 'Looks an order up',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string', example: 'B-2' } },
        required: ['orderId'],
      },
      url: receiver.on(path, { result: { status: 'shipped' } }),
      timeoutSeconds: 5,
      messages: { failed: 'I could not look that up.' },
    });
    const transfer = await admin(tools, { type: 'transfer', name: 'to_desk', destinations: [destination] });
    const kase = (await org.api.post('/api/v1/cases', { title: 'Orders', prompt: 'Help with the order.' })).body.data;
    await admin(`/admin/v1/cases/${kase.id}/tools`, { toolIds: [fn.id, transfer.id] });
    return { caseId: kase.id as string, secret: fn.secret as string };
  }

  it.each<[string, Record<string, string>]>([
    ['cold', { number: '+14155550190', mode: 'cold' }],
    ['warm', { number: '+14155550191', mode: 'warm', message: 'Connecting you to the front desk.' }],
  ])(
    "outbound with a case: its function tool runs signed to the customer's URL, then a %s transfer ends it",
    async (mode, destination) => {
      const path = `/lookup-${driver.platform}-${mode}`;
      const { caseId, secret } = await caseWithTools(path, destination);
      // Ends in 6: the simulator transfers such a call (docs/contracts/simulator.md).
      const id = await call('+14155550186', { caseId });
      await driver.answer(org, id);
      await driver.invokeTool(org, id, 'lookup_order', { orderId: 'B-2' });
      await driver.transfer(org, id);
      const ended = await waitForCall(org, id, (c) => finished(c) && c.toolCalls.length > 0);

      const [request] = receiver.requests(path);
      expect(receiver.requests(path)).toHaveLength(1);
      expect(signedBy(request, secret)).toBe(true);
      expect(request.body).toMatchObject({
        name: 'lookup_order',
        arguments: { orderId: 'B-2' },
        call: { id, direction: 'outbound', to: '+14155550186', from: org.from, caseId, livemode: true },
      });
      expect(ended).toMatchObject({
        status: 'ended',
        endedReason: 'assistant-forwarded-call',
        resultStatus: 'Answered',
        platform: driver.platform,
        transfer: { to: destination.number, mode, status: 'completed', at: expect.any(String) },
        toolCalls: [
          expect.objectContaining({
            name: 'lookup_order',
            arguments: { orderId: 'B-2' },
            result: { status: 'shipped' },
            status: 'succeeded',
          }),
        ],
      });
      if (mode === 'warm') {
        // The warm transfer's message is said before the handover: the call's last assistant line.
        const said = ended.transcript.filter((m: { role: string }) => m.role === 'assistant');
        expect(said.at(-1).content).toBe(destination.message);
      }
      const types = (await eventsOf(driver.t, id)).map((e) => e.type);
      expect(types).toEqual(['call.started', 'call.ended']);
    },
  );

  it('a live call is ended through the platform, once; a second end is 422 INVALID_STATE', async () => {
    const id = await call('+14155550141');
    await driver.answer(org, id);
    const res = await org.api.post(`/api/v1/calls/${id}/end`, {});
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(id);
    expect(await driver.endRequested(org, id)).toBe(true);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({ status: 'ended', endedReason: driver.stoppedReason, platform: driver.platform });
    expect((await eventsOf(driver.t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    const again = await org.api.post(`/api/v1/calls/${id}/end`, {});
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_STATE');
  });

  it('a call that is not live (scheduled) is 422 INVALID_STATE and stays scheduled; an unknown one is 404', async () => {
    const scheduledAt = new Date(Date.now() + 60_000).toISOString();
    const id = await call('+14155550142', { scheduledAt });
    const end = await org.api.post(`/api/v1/calls/${id}/end`, {});
    expect(end.status).toBe(422);
    expect(end.body.error.code).toBe('INVALID_STATE');
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data.status).toBe('scheduled');
    const unknown = await org.api.post('/api/v1/calls/0190f0f0-0000-7000-8000-000000000000/end', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  flow('lose-report', 'a report lost after a live end is recovered from the platform after the grace', async () => {
    const id = await call('+14155550143');
    await driver.answer(org, id);
    await driver.loseReport(org, id);
    expect((await org.api.post(`/api/v1/calls/${id}/end`, {})).status).toBe(200);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({ status: 'ended', endedReason: driver.stoppedReason });
    expect(await driver.askedFor(org, id)).toBe(true);
    expect((await eventsOf(driver.t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
  });

  it("an inbound call is answered with the organization's inbound assistant and recorded inbound", async () => {
    await admin(`/admin/v1/organizations/${org.id}/subscriptions`, {
      productType: 'receptionist',
      tier: 1,
      quantity: 1,
    });
    const prompt = await insertPrompt(driver.t, org.id, 'You are the front desk of Acme.');
    await admin(`/admin/v1/organizations/${org.id}/inbound-assistants`, { name: 'Desk', systemPromptId: prompt });
    const id = await driver.ringInbound(org, '+14155550177');
    await driver.answerHuman(org, id);
    const ended = await waitForCall(org, id, finished);
    expect(ended).toMatchObject({
      status: 'ended',
      direction: 'inbound',
      platform: driver.platform,
      callFrom: org.from,
      callTo: '+14155550177',
      resultStatus: 'Answered',
    });
    expect((await eventsOf(driver.t, id)).map((e) => e.type)).toContain('call.ended');
    const history = await org.api.get('/api/v1/usage/history');
    expect(history.body.data.map((r: { type: string }) => r.type)).toContain('inbound_call');
  });

  it('with a limit of 2 live calls, 4 calls never have more than 2 live; the others wait and all end', async () => {
    expect(
      (await driver.t.admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: 2 })).status,
    ).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await call(`+1415555019${i}`));
    const played = new Set<string>();
    let peak = 0;
    for (;;) {
      const listed = (await org.api.get('/api/v1/calls', { query: { limit: '10' } })).body.data as Array<{
        id: string;
        status: string;
        apiCallId: string | null;
      }>;
      const mine = listed.filter((c) => ids.includes(c.id));
      const live = mine.filter((c) => c.status === 'processing');
      peak = Math.max(peak, live.length);
      expect(live.length).toBeLessThanOrEqual(2);
      expect(driver.liveOnPlatform() ?? 0).toBeLessThanOrEqual(2);
      expect(mine.map((c) => c.status)).not.toContain('error');
      if (mine.every((c) => finished(c))) break;
      // Each call placed is answered and ended (on the simulator it plays itself).
      for (const c of live.filter((l) => l.apiCallId && !played.has(l.id))) {
        played.add(c.id);
        await driver.answerHuman(org, c.id);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(peak).toBeGreaterThan(0);
    const statuses = await Promise.all(
      ids.map(async (id) => (await org.api.get(`/api/v1/calls/${id}`)).body.data.status),
    );
    expect(statuses).toEqual(['ended', 'ended', 'ended', 'ended']);
  });
});
