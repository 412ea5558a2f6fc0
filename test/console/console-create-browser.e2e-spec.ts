import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { signatureMac } from '../../src/common/outbound-http/signature';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { checkPage, ensureConsoleBuilt, expectText, openPage, signIn } from './browser';

/**
 * What the console creates, in Chromium against the real app and a real local receiver: a webhook endpoint
 * (secret shown once, then a test ping that the receiver verifies with that secret), and replies in a
 * conversation: free text inside the 24-hour window, an approved template outside it.
 */
describe('console in Chromium: creating endpoints and replying', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let org: CallsOrg;
  let accountId: string;
  let cspViolations: string[];

  beforeAll(async () => {
    ensureConsoleBuilt();
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    ({ page, cspViolations, close: closeBrowser } = await openPage());
    org = await callingOrg(t);
    await signIn(page, t.baseUrl, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
    await receiver?.stop();
  });

  const url = (path: string) => `${t.baseUrl}/console/orgs/${org.id}${path}`;

  it('creates a webhook endpoint, shows its secret once, and pings it: the receiver verifies the signature', async () => {
    await page.goto(url('/webhooks'));
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/console-hooks`);
    await page.getByLabel('contact.created').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = (await page.getByTestId('secret-value').textContent())!;
    expect(secret).toMatch(/\S{16,}/);
    const listed = (await org.api.get('/api/v1/webhooks')).body.data;
    expect(listed).toEqual([
      expect.objectContaining({
        url: `${receiver.url}/console-hooks`,
        events: ['call.started', 'call.ended', 'call.failed', 'contact.created'],
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    await checkPage(page, 'webhook-created', { fullPage: true });
    // The new endpoint's delivery log is open: ping it from there.
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await expectText(page.locator('.delivery-log [role="status"]'), 'Test ping delivered: 200');
    const pings = receiver.on('/console-hooks');
    expect(pings).toHaveLength(1);
    const [ping] = pings;
    expect(JSON.parse(ping.rawBody).event).toBe('webhook.test');
    const parts = Object.fromEntries(
      String(ping.headers['x-webhook-signature'])
        .split(',')
        .map((p) => p.split('=')),
    );
    expect(parts.v1).toBe(signatureMac(secret, ping.rawBody, parts.t).toString('hex'));
    // Shown once: after a reload the secret is gone from the page.
    await page.reload();
    await expectText(page.locator('.rows'), `${receiver.url}/console-hooks`);
    expect(await page.getByTestId('secret-value').count()).toBe(0);
  });

  it('sends a text reply inside the 24-hour window', async () => {
    const account = await t.admin.post(`/admin/v1/organizations/${org.id}/messaging-accounts`, {
      displayPhoneNumber: '+1 415-555-0100',
      verifiedName: 'Acme Dental',
      status: 'active',
    });
    expect(account.status).toBe(201);
    accountId = account.body.data.id;
    const inbound = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId,
      from: '+14155550111',
      name: 'Maria',
      text: 'Can I move my appointment to Friday?',
    });
    expect(inbound.status).toBe(201);
    await page.goto(url('/messaging'));
    await page.getByRole('button', { name: 'Maria' }).click();
    await page.getByLabel('Reply', { exact: true }).fill('Friday 10:00 works, see you then.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expectText(page.locator('.conversation'), 'Friday 10:00 works');
    const thread = (await org.api.get(`/api/v1/messaging/conversations/${inbound.body.data.conversationId}`)).body.data;
    expect(thread.messages.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([
      ['inbound', 'Can I move my appointment to Friday?'],
      ['outbound', 'Friday 10:00 works, see you then.'],
    ]);
    await checkPage(page, 'messaging-reply', { fullPage: true });
  });

  it('offers only approved templates outside the window, and sends one with its placeholders filled', async () => {
    const template = await t.admin.post(`/admin/v1/messaging-accounts/${accountId}/templates`, {
      name: 'appointment_reminder',
      language: 'en_US',
      status: 'APPROVED',
      body: 'Hi {{1}}, your appointment is on {{2}}.',
    });
    expect(template.status).toBe(201);
    await t.admin.post(`/admin/v1/messaging-accounts/${accountId}/templates`, {
      name: 'pending_one',
      language: 'en_US',
      status: 'PENDING',
      body: 'Not yet approved',
    });
    const old = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId,
      from: '+14155550112',
      name: 'Tom',
      text: 'Hello',
      timestamp: new Date(Date.now() - 48 * 3600_000).toISOString(),
    });
    expect(old.status).toBe(201);
    await page.goto(url('/messaging'));
    await page.getByRole('button', { name: 'Tom' }).click();
    await expectText(page.locator('form.reply'), 'The 24-hour window is closed');
    expect(await page.getByLabel('Reply', { exact: true }).count()).toBe(0);
    // The templates arrive by their own request after the thread: the approved one's option proves they came.
    const templateSelect = page.getByLabel('Template', { exact: true });
    await expectText(templateSelect, 'appointment_reminder (en_US)');
    const options = await templateSelect.locator('option').allTextContents();
    expect(options).toEqual(['Choose a template', 'appointment_reminder (en_US)']);
    await page.getByLabel('Template', { exact: true }).selectOption({ label: 'appointment_reminder (en_US)' });
    await page.getByLabel('Value of {{1}}').fill('Tom');
    await page.getByLabel('Value of {{2}}').fill('Monday 9:00');
    await page.getByRole('button', { name: 'Send template' }).click();
    await expectText(page.locator('form.reply [role="status"]'), 'Sent.');
    const thread = (await org.api.get(`/api/v1/messaging/conversations/${old.body.data.conversationId}`)).body.data;
    expect(thread.messages.at(-1)).toMatchObject({
      direction: 'outbound',
      text: 'Hi Tom, your appointment is on Monday 9:00.',
    });
    expect(cspViolations).toEqual([]);
  });

  it('adds a number to the do-not-call list, which then refuses a call to it, and lifts it', async () => {
    await page.goto(url('/do-not-call'));
    await expectText(page.locator('main'), 'No number is listed.');
    await page.getByLabel('Phone number').fill('+1 415 555 0177');
    await page.getByLabel('Reason').fill('Asked on the phone');
    await page.getByRole('button', { name: 'Add to the list' }).click();
    await expectText(page.getByTestId('do-not-call'), '+14155550177');
    await expectText(page.getByTestId('do-not-call'), 'console');
    const refused = await org.api.post('/api/v1/calls', { to: '+14155550177', from: org.from });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'DO_NOT_CALL']);
    await checkPage(page, 'do-not-call', { fullPage: true });
    await page.getByRole('button', { name: 'Lift +14155550177' }).click();
    await page.getByRole('button', { name: 'Yes, lift +14155550177' }).click();
    await expectText(page.locator('main'), 'No number is listed.');
    const lifted = await org.api.get('/api/v1/do-not-call/%2B14155550177');
    expect([lifted.status, lifted.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it("creates a contact from the form, and shows the API's refusal of a phone already used", async () => {
    await page.goto(url('/contacts'));
    await page.getByRole('button', { name: 'New contact' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Phone', { exact: true }).fill('+1 415 555 0181');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Create contact' }).click();
    await expectText(page.locator('.rows'), 'Ada Lovelace');
    const listed = (await org.api.get('/api/v1/contacts?search=Lovelace')).body.data;
    expect(listed).toEqual([expect.objectContaining({ title: 'Ada Lovelace', phone: '+14155550181' })]);
    await page.getByRole('button', { name: 'New contact' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Ada again');
    await page.getByLabel('Phone', { exact: true }).fill('+14155550181');
    await page.getByRole('button', { name: 'Create contact' }).click();
    await expectText(page.locator('form [role="alert"]'), 'CONFLICT');
    await checkPage(page, 'contact-new', { fullPage: true });
    expect((await org.api.get('/api/v1/contacts?search=Ada%20again')).body.data).toEqual([]);
  });

  it('creates a case with variables, which calls then must supply', async () => {
    await page.goto(url('/cases'));
    await page.getByRole('button', { name: 'New case' }).click();
    await page.getByLabel('Title').fill('Reminder');
    await page.getByLabel('Prompt').fill('Remind {{name}} of the appointment on {{date}}.');
    await page.getByLabel('First message').fill('Hi {{name}}, about {{date}}.');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Name of variable 1').fill('date');
    await page.getByRole('group', { name: 'Variable 1' }).getByLabel('Required').check();
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Name of variable 2').fill('name');
    await page.getByLabel('Source of variable 2').selectOption('contact.title');
    await page.getByLabel('Default of variable 2').fill('there');
    await checkPage(page, 'case-new', { fullPage: true });
    await page.getByRole('button', { name: 'Save case' }).click();
    await expectText(page.locator('.rows'), 'Reminder');
    const cases = (await org.api.get('/api/v1/cases')).body.data;
    const created = cases.find((c: { title: string }) => c.title === 'Reminder');
    const full = (await org.api.get(`/api/v1/cases/${created.id}`)).body.data;
    expect(full.variables).toEqual([
      expect.objectContaining({ name: 'date', source: 'custom', required: true }),
      expect.objectContaining({ name: 'name', source: 'contact.title', defaultValue: 'there' }),
    ]);
    const missing = await org.api.post('/api/v1/calls', { to: '+14155550191', from: org.from, caseId: created.id });
    expect([missing.status, missing.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(missing.body.error.message).toContain('date');
  });
});
