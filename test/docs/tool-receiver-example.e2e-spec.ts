import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { freePort } from '../support/free-port';

const EXAMPLE = join(__dirname, '../../docs/examples/tool-receiver.mjs');

/** docs/examples/tool-receiver.mjs runs as documented: it verifies our signature and its answer reaches the call. */
describe('the documented tool receiver example', () => {
  let t: TestApp;
  let org: CallsOrg;
  let child: ChildProcess | undefined;
  const output: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true', SIMULATOR_CALL_MS: '2000' } });
    org = await callingOrg(t);
  });
  afterAll(async () => {
    child?.kill();
    await t?.close();
  });

  it('verifies the signature, answers a result the call records, and refuses a forged request', async () => {
    const port = await freePort();
    const tool = await t.admin.post(`/admin/v1/organizations/${org.id}/tools`, {
      type: 'function',
      name: 'order_status',
      parameters: { type: 'object', properties: { orderId: { type: 'string', example: 'A-17' } } },
      url: `http://127.0.0.1:${port}/tools/order-status`,
    });
    expect(tool.status).toBe(201);
    child = spawn(process.execPath, [EXAMPLE, String(port)], {
      env: { ...process.env, TOOL_SECRET: tool.body.data.secret },
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await waitUntil(() => output.join('').includes('listening'));

    const kase = await org.api.post('/api/v1/cases', { title: 'Orders', prompt: 'Help with orders.' });
    await t.admin.post(`/admin/v1/cases/${kase.body.data.id}/tools`, { toolIds: [tool.body.data.id] });
    const call = await org.api.post('/api/v1/calls', { to: '+14155550130', from: org.from, caseId: kase.body.data.id });
    const ended = await waitForCall(org, call.body.data.id, finished, 15_000);
    expect(ended.toolCalls).toEqual([
      expect.objectContaining({
        name: 'order_status',
        status: 'succeeded',
        result: { tool: 'order_status', echo: { orderId: 'A-17' }, answer: 'Order A-17 has shipped.' },
      }),
    ]);
    expect(output.join('')).toContain(`verified order_status`);

    const forged = await fetch(`http://127.0.0.1:${port}/tools/order-status`, {
      method: 'POST',
      headers: { 'x-webhook-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: '{}',
    });
    expect(forged.status).toBe(401);
  });
});

async function waitUntil(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
