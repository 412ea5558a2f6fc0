import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { ToolReceiver, signedBy } from '../tools/support/tool-receiver';
import { PLATFORMS, PlatformDriver, PlatformUnderTest } from './platform-drivers';
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
});
