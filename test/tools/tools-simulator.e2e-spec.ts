import { CallsOrg, callingOrg, eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { ToolReceiver, signedBy } from './support/tool-receiver';

const parameters = {
  type: 'object',
  properties: { orderId: { type: 'string', example: 'A-17' }, count: { type: 'integer' }, rush: { type: 'boolean' } },
  required: ['orderId'],
};

/**
 * Function tools and transfers on the simulator (docs/tools.md, docs/contracts/simulator.md): a real local tool
 * server receives each call signed with the tool's secret; what it answers (or fails to) is recorded on the call.
 * A tool call followed by a cold or warm transfer is played on every platform in voice/voice-flows.e2e-spec.ts.
 */
describe('tools on the simulator', () => {
  let t: TestApp;
  let org: CallsOrg;
  let receiver: ToolReceiver;

  beforeAll(async () => {
    receiver = await new ToolReceiver().start();
    t = await startTestApp({
      env: { WEBHOOK_ALLOW_INSECURE: 'true', SIMULATOR_RING_MS: '50', SIMULATOR_CALL_MS: '4000' },
    });
    org = await callingOrg(t);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  async function functionTool(name: string, url: string, extra: Record<string, unknown> = {}) {
    const res = await t.admin.post(`/admin/v1/organizations/${org.id}/tools`, {
      type: 'function',
      name,
      parameters,
      url,
      ...extra,
    });
    if (res.status !== 201) throw new Error(`tool: ${res.status} ${res.text}`);
    return res.body.data as { id: string; secret: string };
  }
  async function caseWith(toolIds: string[]): Promise<string> {
    const created = await org.api.post('/api/v1/cases', { title: 'Tools', prompt: 'Help.' });
    const attached = await t.admin.post(`/admin/v1/cases/${created.body.data.id}/tools`, { toolIds });
    if (attached.status !== 200) throw new Error(`attach: ${attached.status} ${attached.text}`);
    return created.body.data.id;
  }
  async function call(caseId: string, to = '+14155550120') {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from, caseId });
    if (res.status !== 201) throw new Error(`call: ${res.status} ${res.text}`);
    expect(res.body.data).toMatchObject({ toolCalls: [], transfer: null });
    return res.body.data.id as string;
  }

  it('calls a function tool once after the first user turn, signed, with schema-built arguments; records the result', async () => {
    const tool = await functionTool('lookup_order', receiver.on('/lookup', { result: { status: 'shipped' } }));
    const caseId = await caseWith([tool.id]);
    const id = await call(caseId);
    const ended = await waitForCall(org, id, finished, 15_000);

    const [request] = receiver.requests('/lookup');
    expect(receiver.requests('/lookup')).toHaveLength(1);
    expect(signedBy(request, tool.secret)).toBe(true);
    // Signed with the secret the column holds only sealed (SECRETS_KEY), never as it is.
    const stored = (await t.db.query('SELECT secret FROM tools WHERE id = $1', [tool.id])).rows[0].secret;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(tool.secret.slice(6));
    expect(request.headers['x-webhook-id']).toBe(request.body.toolCallId);
    expect(request.body).toEqual({
      toolCallId: expect.any(String),
      name: 'lookup_order',
      arguments: { orderId: 'A-17', count: 0, rush: false },
      call: { id, direction: 'outbound', to: '+14155550120', from: org.from, caseId, contactId: null, livemode: true },
    });
    expect(ended.status).toBe('ended');
    expect(ended.toolCalls).toEqual([
      {
        id: request.body.toolCallId,
        name: 'lookup_order',
        arguments: { orderId: 'A-17', count: 0, rush: false },
        result: { status: 'shipped' },
        status: 'succeeded',
        durationMs: expect.any(Number),
        at: expect.any(String),
      },
    ]);
    expect(ended.transfer).toBeNull();
    const endedEvent = (await eventsOf(t, id)).find((e) => e.type === 'call.ended');
    expect(endedEvent!.data.toolCalls).toEqual(ended.toolCalls);
  });

  it('a hanging tool times out; a 500, a non-JSON, an unwrapped and a 10 MB answer fail, each saying why; the call ends', async () => {
    const hang = await functionTool('hangs', receiver.on('/hang', { hang: true }), {
      timeoutSeconds: 1,
      messages: { failed: 'Sorry, that did not work.' },
    });
    const error = await functionTool('errors', receiver.on('/500', { status: 500 }));
    const text = await functionTool('texts', receiver.on('/text', { text: 'not json' }));
    const huge = await functionTool('huge', receiver.on('/huge', { bytes: 10 * 1024 * 1024 }));
    const unwrapped = await functionTool('unwrapped', receiver.on('/unwrapped', { text: '{"available": true}' }));
    const id = await call(await caseWith([hang.id, error.id, text.id, huge.id, unwrapped.id]));
    const ended = await waitForCall(org, id, finished, 15_000);

    expect(ended.status).toBe('ended');
    expect(ended.endedReason).toBe('customer-ended-call');
    const byName = Object.fromEntries(ended.toolCalls.map((c: any) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['errors', 'hangs', 'huge', 'texts', 'unwrapped']);
    const shape = 'answer 2xx with a JSON object {"result": …}';
    expect(byName.hangs).toMatchObject({
      status: 'timed-out',
      result: null,
      error: { code: 'TIMEOUT', message: "no answer within 1 s (the tool's timeoutSeconds)" },
    });
    // Cut off at its 1 s timeout (status timed-out), never before it.
    expect(byName.hangs.durationMs).toBeGreaterThanOrEqual(1000);
    expect(byName.errors).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'HTTP_STATUS', httpStatus: 500, message: `the tool answered HTTP 500; ${shape}` },
    });
    expect(byName.texts).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'BAD_RESPONSE', httpStatus: 200, message: `the answer is not JSON; ${shape}` },
    });
    expect(byName.huge).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'TOO_LARGE', httpStatus: 200 },
    });
    expect(byName.unwrapped).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'BAD_RESPONSE', httpStatus: 200, message: `the answer has no "result" member; ${shape}` },
    });
    // An answer is never retried: each tool was asked once.
    for (const path of ['/hang', '/500', '/text', '/huge', '/unwrapped'])
      expect(receiver.requests(path)).toHaveLength(1);
  });

  it('a number not ending in 6 is not transferred; a call keeps the tools it was created with', async () => {
    const transfer = await t.admin.post(`/admin/v1/organizations/${org.id}/tools`, {
      type: 'transfer',
      name: 'to_sales',
      destinations: [{ number: '+14155550192', mode: 'cold' }],
    });
    const tool = await functionTool('snapshot', receiver.on('/snapshot', { result: 'v1' }));
    const caseId = await caseWith([transfer.body.data.id, tool.id]);
    const id = await call(caseId, '+14155550125');
    // Changed after the call was created: the call still calls the URL it was created with.
    await t.admin.patch(`/admin/v1/tools/${tool.id}`, { url: receiver.on('/moved', { result: 'v2' }) });
    const ended = await waitForCall(org, id, finished, 15_000);
    expect(ended).toMatchObject({ endedReason: 'customer-ended-call', transfer: null });
    expect(ended.toolCalls).toEqual([expect.objectContaining({ name: 'snapshot', result: 'v1', status: 'succeeded' })]);
    expect(receiver.requests('/moved')).toHaveLength(0);
  });
});
