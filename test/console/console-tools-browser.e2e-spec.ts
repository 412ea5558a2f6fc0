import type { Page } from 'playwright-core';
import { callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { ToolReceiver } from '../tools/support/tool-receiver';
import { checkPage, ensureConsoleBuilt, expectText, signedInPage } from './browser';

/**
 * Tools in Chromium against the real app: each type created from the form (the API's refusals shown beside the
 * field they name, a function tool's secret shown once), one edited, two attached to a case on its page, a delete
 * refused while attached and allowed once detached.
 */
describe('console in Chromium: tools', () => {
  let t: TestApp;
  let org: TestOrg;
  let caseId: string;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let cspViolations: string[];

  let receiver: ToolReceiver;

  beforeAll(async () => {
    ensureConsoleBuilt();
    receiver = await new ToolReceiver().start();
    // The tool receiver listens on 127.0.0.1 over http.
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    org = await createOrg(t, { name: 'Tools org' });
    caseId = (await org.api.post('/api/v1/cases', { title: 'Order desk', prompt: 'Help with orders.' })).body.data.id;
    ({ page, cspViolations, close: closeBrowser } = await signedInPage(t.baseUrl));
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
    await receiver?.stop();
  });

  const url = (path: string) => `${t.baseUrl}/console/orgs/${org.id}${path}`;
  const tools = async () =>
    (await t.admin.get(`/admin/v1/organizations/${org.id}/tools`)).body.data as Array<Record<string, any>>;
  const toolId = async (name: string) => (await tools()).find((tool) => tool.name === name)!.id as string;
  const form = () => page.getByRole('form', { name: 'New tool' });

  it('creates a tool of each type; refusals are named at their field; the secret is shown once', async () => {
    await page.goto(url('/tools'));
    await expectText(page.locator('main'), 'No tools yet.');

    await page.getByRole('button', { name: 'New tool' }).click();
    await form().getByLabel('Name', { exact: true }).fill('lookup_order');
    await form().getByLabel('Description').fill('Looks an order up by its number');
    // The form states the answer a function tool must give.
    await expectText(form(), '{"result": …}');
    await form().getByLabel('URL').fill('https://tools.example.com/lookup');
    // Not JSON: refused in the page, nothing sent.
    await form().getByLabel('Parameters (JSON Schema)').fill('{"type": "object",');
    await expectText(form().locator('.field-problem'), 'Not valid JSON');
    await form().getByRole('button', { name: 'Create tool' }).click();
    expect(await tools()).toEqual([]);
    // JSON, but not an object schema: the API's 400 names `parameters`, shown under that field.
    await form().getByLabel('Parameters (JSON Schema)').fill('{"type": "string"}');
    await form().getByRole('button', { name: 'Create tool' }).click();
    await expectText(form().locator('.field-problem'), 'parameters');
    await expectText(form().locator('.error'), 'VALIDATION_ERROR');
    const schema = { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] };
    await form().getByLabel('Parameters (JSON Schema)').fill(JSON.stringify(schema));
    await form().getByLabel('Timeout (seconds)').fill('8');
    await form().getByLabel('Message when it fails').fill('I could not look that up.');
    await form().getByRole('button', { name: 'Create tool' }).click();
    const secret = (await page.getByTestId('secret-value').textContent())!;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await expectText(page.getByTestId('tools'), 'https://tools.example.com/lookup');
    expect(await tools()).toEqual([
      expect.objectContaining({
        type: 'function',
        name: 'lookup_order',
        parameters: schema,
        timeoutSeconds: 8,
        messages: { failed: 'I could not look that up.' },
      }),
    ]);
    await checkPage(page, 'tool-created', { fullPage: true });

    // A transfer: a number that is not one is refused by the API, named at the destinations.
    await page.getByRole('button', { name: 'New tool' }).click();
    expect(await page.getByTestId('secret-value').count()).toBe(0);
    await form().getByLabel('Type').selectOption('transfer');
    await form().getByLabel('Name', { exact: true }).fill('to_sales');
    await form().getByLabel('Number of destination 1').fill('555');
    await form().getByRole('button', { name: 'Create tool' }).click();
    await expectText(form().locator('.field-problem'), 'destinations.0.number');
    await form().getByLabel('Number of destination 1').fill('+14155550150');
    await form().getByLabel('Message of destination 1').fill('Connecting you to sales');
    await form().getByLabel('Mode of destination 1').selectOption('warm');
    await form().getByRole('button', { name: 'Add destination' }).click();
    await form().getByLabel('Number of destination 2').fill('+14155550151');
    await form().getByRole('button', { name: 'Create tool' }).click();
    await expectText(page.getByTestId('tools'), '+14155550150 (warm), +14155550151 (cold)');
    expect(await page.getByTestId('secret-value').count()).toBe(0);

    await page.getByRole('button', { name: 'New tool' }).click();
    await form().getByLabel('Type').selectOption('end-call');
    await form().getByLabel('Name', { exact: true }).fill('hang_up');
    await form().getByRole('button', { name: 'Create tool' }).click();
    await expectText(page.getByTestId('tools'), 'hang_up');

    await page.getByRole('button', { name: 'New tool' }).click();
    await form().getByLabel('Type').selectOption('platform');
    await form().getByLabel('Platform tool id').fill('vapi-tool-9');
    await form().getByRole('button', { name: 'Create tool' }).click();
    await expectText(page.getByTestId('tools'), 'provider tool vapi-tool-9');

    const byName = Object.fromEntries((await tools()).map((tool) => [tool.name ?? tool.providerToolId, tool]));
    expect(byName.to_sales.destinations).toEqual([
      { number: '+14155550150', message: 'Connecting you to sales', mode: 'warm' },
      { number: '+14155550151', mode: 'cold' },
    ]);
    expect(byName.hang_up.type).toBe('end-call');
    expect(byName['vapi-tool-9']).toMatchObject({ type: 'platform', name: null });
    await checkPage(page, 'tools', { fullPage: true });
  });

  it('edits a tool: its type stays, the changed fields are saved', async () => {
    await page.getByRole('button', { name: 'Edit lookup_order' }).click();
    const edit = page.getByRole('form', { name: 'Edit tool lookup_order' });
    expect(await edit.getByLabel('Type').isDisabled()).toBe(true);
    await edit.getByLabel('Timeout (seconds)').fill('5');
    await edit.getByRole('button', { name: 'Save tool' }).click();
    await expectText(page.getByTestId('tools'), 'https://tools.example.com/lookup · 5 s');
    const stored = (await tools()).find((tool) => tool.name === 'lookup_order')!;
    expect(stored).toMatchObject({ timeoutSeconds: 5, messages: { failed: 'I could not look that up.' } });
  });

  it('attaches tools to a case on its page, which lists them', async () => {
    await page.goto(url('/cases'));
    await page.getByRole('link', { name: 'Order desk' }).click();
    await page.waitForURL(new RegExp(`/cases/${caseId}$`));
    await expectText(page.locator('#case-tools-h + *'), 'No tools');
    await page.getByRole('button', { name: 'Change tools' }).click();
    await page.getByLabel('lookup_order (function)').check();
    await page.getByLabel('to_sales (transfer)').check();
    await page.getByLabel('Voice platform tool ids').fill('vapi-int-1\nvapi-int-2');
    await page.getByRole('button', { name: 'Save tools' }).click();
    await expectText(page.getByTestId('case-tools'), 'lookup_order');
    await expectText(page.getByTestId('case-tools'), 'to_sales');
    await expectText(page.getByTestId('case-integration-tools'), 'vapi-int-2');
    const stored = (await org.api.get(`/api/v1/cases/${caseId}`)).body.data;
    expect(stored.toolIds).toEqual([await toolId('lookup_order'), await toolId('to_sales')]);
    expect(stored.integrationToolIds).toEqual(['vapi-int-1', 'vapi-int-2']);
    await checkPage(page, 'case-tools', { fullPage: true });
  });

  it('refuses to delete an attached tool, saying it is attached to a case; deletes it once detached', async () => {
    const id = await toolId('lookup_order');
    await page.goto(url('/tools'));
    await page.getByRole('button', { name: 'Delete lookup_order' }).click();
    await page.getByRole('button', { name: 'Delete tool' }).click();
    await expectText(page.getByTestId('tools').getByRole('alert'), 'lookup_order is attached to a case');
    await expectText(page.getByTestId('tools').getByRole('alert'), 'Tool is in use: 1 case');
    await checkPage(page, 'tool-delete-refused', { fullPage: true });
    expect((await t.admin.get(`/admin/v1/tools/${id}`)).status).toBe(200);

    await page.goto(url(`/cases/${caseId}`));
    await page.getByRole('button', { name: 'Change tools' }).click();
    await page.getByLabel('lookup_order (function)').uncheck();
    await page.getByRole('button', { name: 'Save tools' }).click();
    await page.getByRole('button', { name: 'Change tools' }).waitFor();
    expect(await page.getByTestId('case-tools').textContent()).not.toContain('lookup_order');
    expect((await org.api.get(`/api/v1/cases/${caseId}`)).body.data.toolIds).toEqual([await toolId('to_sales')]);

    await page.goto(url('/tools'));
    await page.getByRole('button', { name: 'Delete lookup_order' }).click();
    await page.getByRole('button', { name: 'Delete tool' }).click();
    await page.getByRole('button', { name: 'Edit lookup_order' }).waitFor({ state: 'detached' });
    expect((await t.admin.get(`/admin/v1/tools/${id}`)).status).toBe(404);
    expect(cspViolations).toEqual([]);
  });

  it("shows on a call's page why a function tool failed", async () => {
    const caller = await callingOrg(t);
    const tool = await t.admin.post(`/admin/v1/organizations/${caller.id}/tools`, {
      type: 'function',
      name: 'check_slot',
      parameters: { type: 'object', properties: {} },
      url: receiver.on('/slot', { text: '{"available": true}' }),
    });
    const desk = (await caller.api.post('/api/v1/cases', { title: 'Slots', prompt: 'Help.' })).body.data.id;
    expect((await t.admin.post(`/admin/v1/cases/${desk}/tools`, { toolIds: [tool.body.data.id] })).status).toBe(200);
    const placed = await caller.api.post('/api/v1/calls', { to: '+14155550120', from: caller.from, caseId: desk });
    const ended = await waitForCall(caller, placed.body.data.id, finished, 15_000);
    expect(ended.toolCalls).toEqual([expect.objectContaining({ status: 'failed', error: expect.anything() })]);

    await page.goto(`${t.baseUrl}/console/orgs/${caller.id}/calls/${ended.id}`);
    await expectText(page.getByTestId('tool-call-error'), 'BAD_RESPONSE (HTTP 200)');
    await expectText(page.getByTestId('tool-call-error'), 'the answer has no "result" member');
    await checkPage(page, 'tool-call-failed', { fullPage: true });
    expect(cspViolations).toEqual([]);
  });

  it("shows on a call's page the transfer its case's tool made", async () => {
    const caller = await callingOrg(t);
    const tool = await t.admin.post(`/admin/v1/organizations/${caller.id}/tools`, {
      type: 'transfer',
      name: 'to_desk',
      destinations: [{ number: '+14155550190', mode: 'cold' }],
    });
    const desk = (await caller.api.post('/api/v1/cases', { title: 'Desk', prompt: 'Help.' })).body.data.id;
    expect((await t.admin.post(`/admin/v1/cases/${desk}/tools`, { toolIds: [tool.body.data.id] })).status).toBe(200);
    // The simulator transfers a call to a number ending in 6 to its first destination (docs/contracts/simulator.md).
    const placed = await caller.api.post('/api/v1/calls', { to: '+14155550186', from: caller.from, caseId: desk });
    const ended = await waitForCall(caller, placed.body.data.id, finished, 15_000);
    expect(ended).toMatchObject({ endedReason: 'assistant-forwarded-call', transfer: { to: '+14155550190' } });

    await page.goto(`${t.baseUrl}/console/orgs/${caller.id}/calls/${ended.id}`);
    await expectText(page.getByTestId('call-transfer'), 'Transferred to +14155550190 (cold)');
    await expectText(page.getByTestId('call-transfer'), 'completed');
    expect(cspViolations).toEqual([]);
  });
});
