/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser, so they see the DOM.
import type { BrowserContext, Page } from 'playwright-core';
import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { checkPage, ensureConsoleBuilt, expectText, expectTextChange, launchChromium } from './browser';

/**
 * The console in real Chromium against the real app: every step goes through the pages as an operator would,
 * and the outcomes are checked both on screen and through the API.
 */
describe('console in Chromium', () => {
  let t: TestApp;
  let context: BrowserContext;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  const cspViolations: string[] = [];
  let orgId: string;

  beforeAll(async () => {
    ensureConsoleBuilt();
    // A call long enough to watch it move through its statuses, short enough to keep the suite quick.
    t = await startTestApp({ env: { SIMULATOR_RING_MS: '300', SIMULATOR_CALL_MS: '2500' } });
    ({ context, close: closeBrowser } = await launchChromium());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
  });

  const url = (path: string) => `${t.baseUrl}/console${path}`;

  /** A fresh key of the organization, for fixtures a customer would create through the public API. */
  async function withKey(): Promise<HttpClient> {
    const created = await t.admin.post(`/admin/v1/organizations/${orgId}/api-keys`, {
      scopes: ['*'],
      name: 'fixtures',
    });
    return new HttpClient(t.baseUrl, { 'x-api-key': created.body.data.key });
  }

  /** axe on the page as shown at both widths, and screenshots for docs/console.md. */
  const check = (name: string) => checkPage(page, name);

  it('sends a signed-out visitor to sign-in and refuses a wrong token with the API message', async () => {
    await page.goto(url('/'));
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page.getByRole('alert'), 'Missing or invalid admin token');
    await check('sign-in');
  });

  it('signs in with the admin token and never keeps it in page storage', async () => {
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/orgs$/);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain(ADMIN_TOKEN);
    // The session cookie is HttpOnly: scripts on the page cannot read it.
    expect(stored).not.toContain('vc_console_session');
    const cookies = await context.cookies(t.baseUrl + '/admin/v1');
    expect(cookies.find((c) => c.name === 'vc_console_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('creates an organization from the picker', async () => {
    await page.getByLabel('Name').fill('Acme Dental');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(/\/console\/orgs\/[0-9a-f-]{36}$/);
    orgId = /orgs\/([0-9a-f-]{36})/.exec(page.url())![1];
    await expectText(page.locator('.org-name'), 'Acme Dental');
    // What the dashboard's other admin screens would set up: a number, minutes, a case on a schedule.
    await t.admin.post(`/admin/v1/organizations/${orgId}/phone-numbers`, {
      number: '+14155550100',
      label: 'Front desk',
    });
    await t.admin.post(`/admin/v1/organizations/${orgId}/trial`, { days: 30, mins: 100 });
    await page.goto(url('/orgs'));
    await expectText(page.locator('.cards'), 'Acme Dental');
    await check('organizations');
  });

  it('pages long lists with the API cursors', async () => {
    for (let i = 0; i < 25; i++) await t.admin.post('/admin/v1/organizations', { name: `Clinic ${i}` });
    await page.goto(url('/orgs'));
    await page.locator('.cards li').nth(24).waitFor();
    expect(await page.locator('.cards li').count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.locator('.cards li').nth(25).waitFor();
    expect(await page.locator('.cards li').count()).toBe(26);
    await expectText(page.locator('.cards li').nth(25), 'Acme Dental');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  let key: string;
  let keyApi: HttpClient;

  it('creates a key shown once with a copy button, and never shows it again', async () => {
    await page.goto(url(`/orgs/${orgId}/keys`));
    await page.getByLabel('Key name').fill('Website');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = (await page.getByTestId('secret-value').textContent())!;
    expect(key).toMatch(/^vc_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expectText(page.getByRole('button', { name: 'Copied' }), 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    keyApi = new HttpClient(t.baseUrl, { 'x-api-key': key });
    expect((await keyApi.get('/api/v1/calls')).status).toBe(200);
    await check('api-keys');
    await page.reload();
    await expectText(page.locator('table'), 'Website');
    expect(await page.content()).not.toContain(key);
  });

  it('revokes the key after confirmation, and the public API answers 401 KEY_REVOKED', async () => {
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await expectText(page.locator('table'), 'revoked');
    const refused = await keyApi.get('/api/v1/calls');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('KEY_REVOKED');
  });

  it('places a test call and shows it reach ended with its transcript, without a reload', async () => {
    await page.goto(url(`/orgs/${orgId}`));
    await check('overview-empty');
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    await page.getByRole('button', { name: 'Place test call' }).click();
    // A test call's page is in the test world, named in its URL.
    await page.waitForURL(/\/calls\/[0-9a-f-]{36}\?world=test$/);
    await expectText(page.getByTestId('call-status'), 'ended', 20_000);
    await expectText(page.getByTestId('transcript'), 'Assistant');
    const timeline = await page.getByTestId('timeline').textContent();
    expect(timeline).toContain('ended');
    // Client-side route changes only: the page itself was never reloaded (pushState is not a navigation here).
    expect(navigations).toBeLessThanOrEqual(1);
    await check('call-detail');
  });

  it('places a test call with a case and its variables, the API naming a missing one', async () => {
    const api = await withKey();
    const reminder = await api.post('/api/v1/cases', {
      title: 'Reminder',
      prompt: 'Remind the caller of {{date}}.',
      firstMessage: 'Your appointment is on {{date}}.',
      variables: [{ name: 'date', source: 'custom', required: true }],
    });
    expect(reminder.status).toBe(201);
    await page.goto(url(`/orgs/${orgId}`));
    const form = page.getByRole('form', { name: 'Test call' });
    await form.getByLabel('Case').selectOption({ label: 'Reminder' });
    await form.getByRole('button', { name: 'Place test call' }).click();
    await expectText(form.locator('.error'), 'variableValues.date');
    await form.getByLabel('Variables').fill('date=Friday 10:00');
    await form.getByRole('button', { name: 'Place test call' }).click();
    await page.waitForURL(/\/calls\/[0-9a-f-]{36}\?world=test$/);
    const callId = new URL(page.url()).pathname.split('/').pop()!;
    const call = (
      await t.admin.get(`/admin/v1/organizations/${orgId}/calls/${callId}`, { query: { livemode: 'false' } })
    ).body.data;
    expect(call).toMatchObject({
      caseId: reminder.body.data.id,
      variableValues: { date: 'Friday 10:00' },
      firstMessage: 'Your appointment is on Friday 10:00.',
    });
    await check('test-call-with-case');
  });

  it('shows the usage change: balance, chart and history', async () => {
    // A live call through the public API spends a started minute (a console test call may run in test mode,
    // which is free), and the usage page follows without a reload.
    await page.goto(url(`/orgs/${orgId}/usage`));
    const before = (await page.getByTestId('usage-balance').textContent())!;
    const live = await withKey();
    const call = await live.post('/api/v1/calls', { to: '+14155550102', from: '+14155550100' });
    expect(call.status).toBe(201);
    await expectTextChange(page.getByTestId('usage-balance'), before, 20_000);
    expect(parseFloat((await page.getByTestId('usage-balance').textContent())!)).toBeLessThan(parseFloat(before));
    await expectText(page.getByTestId('usage-history'), 'outbound_call');
    // The chart counts live talk minutes, which the call has once it ends (the earlier test call is test data and
    // draws nothing): its bar appears at the page's next refresh.
    const bars = page.getByTestId('minutes-chart').locator('rect[height]:not([height="0"])');
    await bars.first().waitFor({ timeout: 20_000 });
    expect(await bars.count()).toBe(1);
    await check('usage');
    await page.goto(url(`/orgs/${orgId}`));
    await page.getByTestId('minutes-chart').waitFor();
    await check('overview');
  });

  it('pauses an automation', async () => {
    const kase = await t.admin.post(`/admin/v1/organizations/${orgId}/cases`, {
      title: 'Recall reminder',
      prompt: 'Remind the patient of the recall visit',
      firstMessage: 'Hello from Acme Dental',
    });
    const schedule = await t.admin.post(`/admin/v1/organizations/${orgId}/recurring-schedules`, {
      caseId: kase.body.data.id,
    });
    await page.goto(url(`/orgs/${orgId}/automations`));
    await page.getByRole('button', { name: 'Pause' }).click();
    await expectText(page.getByTestId(`automation-${schedule.body.data.id}`), 'paused');
    const list = await t.admin.get(`/admin/v1/organizations/${orgId}/automations`);
    expect(list.body.data[0].status).toBe('paused');
    await check('automations');
  });

  it('shows contacts with search, groups and custom fields', async () => {
    const org = await withKey();
    const group = await t.admin.post(`/admin/v1/organizations/${orgId}/contact-groups`, { name: 'Recall due' });
    await org.post('/api/v1/contacts', {
      title: 'Maria Lopez',
      phone: '+14155550111',
      groupIds: [group.body.data.id],
      customFields: { insurer: 'Delta', lastVisit: '2026-05-02' },
    });
    await org.post('/api/v1/contacts', { title: 'John Smith', phone: '+14155550112' });
    await page.goto(url(`/orgs/${orgId}/contacts`));
    await expectText(page.locator('.rows'), 'John Smith');
    await page.getByLabel('Search name or phone').fill('maria');
    await page.waitForFunction(() => !document.querySelector('.rows')?.textContent?.includes('John Smith'));
    await page.getByLabel('Group').selectOption({ label: 'Recall due (1)' });
    await page.getByRole('button', { name: 'Maria Lopez' }).click();
    await expectText(page.locator('.details'), 'Delta');
    await check('contacts');
  });

  it('enables, disables and rotates a webhook endpoint', async () => {
    const org = await withKey();
    await org.post('/api/v1/webhooks', { url: 'https://hooks.acme.example/voice', events: ['call.ended'] });
    await page.goto(url(`/orgs/${orgId}/webhooks`));
    await page.getByRole('button', { name: /^Disable/ }).click();
    await expectText(page.locator('.rows'), 'disabled');
    expect((await org.get('/api/v1/webhooks')).body.data[0].isActive).toBe(false);
    await page.getByRole('button', { name: /^Enable/ }).click();
    await expectText(page.locator('.rows'), 'enabled');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, rotate secret' }).click();
    expect(await page.getByTestId('secret-value').textContent()).toMatch(/\S{16,}/);
    await check('webhooks');
  });

  it('shows a messaging conversation as a thread', async () => {
    const account = await t.admin.post(`/admin/v1/organizations/${orgId}/messaging-accounts`, {
      displayPhoneNumber: '+1 415-555-0100',
      verifiedName: 'Acme Dental',
      status: 'active',
    });
    await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId: account.body.data.id,
      from: '+14155550111',
      name: 'Maria',
      text: 'Can I move my appointment to Friday?',
    });
    await page.goto(url(`/orgs/${orgId}/messaging`));
    await page.getByRole('button', { name: 'Maria' }).click();
    await expectText(page.locator('.conversation'), 'move my appointment');
    await check('messaging');
  });

  it('filters calls as the API does', async () => {
    await page.goto(url(`/orgs/${orgId}/calls`));
    await page.locator('table').waitFor();
    await page.getByLabel('Status').selectOption('error');
    await expectText(page.locator('.empty'), 'No calls match');
    await page.getByLabel('Status').selectOption('ended');
    await expectText(page.locator('table'), 'ended');
    await page.getByLabel('Case').selectOption({ label: 'Recall reminder' });
    await expectText(page.locator('.empty'), 'No calls match');
  });

  it('adds a phone number from the numbers page (imported from the voice platform when it keeps numbers)', async () => {
    await page.goto(url(`/orgs/${orgId}/numbers`));
    await page.getByRole('button', { name: 'Import from voice platform' }).click();
    await page.getByLabel('Number (E.164)').fill('+14155550177');
    await page.getByLabel('Label').fill('Sales');
    await check('phone-number-import');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expectText(page.locator('.rows'), '+14155550177');
    // Each number shows the platform its calls go out on (the default for new numbers here: the simulator).
    await expectText(page.locator('.rows li', { hasText: '+14155550177' }), 'on simulator');
    const listed = await t.admin.get(`/admin/v1/organizations/${orgId}/phone-numbers`);
    expect(listed.body.data.map((n: { number: string }) => n.number)).toContain('+14155550177');
  });

  it('passes axe on every other page, at desktop and phone width', async () => {
    for (const [name, path] of [
      ['calls', 'calls'],
      ['cases', 'cases'],
      ['assistants', 'assistants'],
      ['phone-numbers', 'numbers'],
      ['profile', 'profile'],
    ]) {
      await page.goto(url(`/orgs/${orgId}/${path}`));
      await page.locator('h1').waitFor();
      await check(name);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url(`/orgs/${orgId}/calls`));
    await page.locator('table').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('reaches every control by keyboard on the key page', async () => {
    await page.goto(url(`/orgs/${orgId}/keys`));
    await page.locator('h1').waitFor();
    const focused = new Set<string>();
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      focused.add(
        await page.evaluate(
          () => document.activeElement?.textContent?.trim() || (document.activeElement as HTMLInputElement)?.id,
        ),
      );
    }
    expect([...focused]).toEqual(expect.arrayContaining(['Skip to content', 'Create key', 'Sign out']));
  });

  it('shows one world at a time with the Test / Live switch; test rows are badged', async () => {
    const created = await t.admin.post(`/admin/v1/organizations/${orgId}/api-keys`, {
      scopes: ['*'],
      name: 'test fixtures',
      environment: 'test',
    });
    const testKey = new HttpClient(t.baseUrl, { 'x-api-key': created.body.data.key });
    expect((await testKey.post('/api/v1/contacts', { title: 'Tess Test', phone: '+14155550119' })).status).toBe(201);
    await page.goto(url(`/orgs/${orgId}/contacts`));
    await expectText(page.locator('.rows'), 'Maria Lopez');
    expect(await page.locator('.rows').textContent()).not.toContain('Tess Test');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expectText(page.locator('.rows'), 'Tess Test');
    expect(await page.locator('.rows').textContent()).not.toContain('Maria Lopez');
    expect(await page.locator('.rows .badge-test').count()).toBe(1);
    await expectText(page.getByRole('status'), 'Test data');
    // The world is in the URL: a reload (or the link shared) keeps it.
    expect(new URL(page.url()).searchParams.get('world')).toBe('test');
    await page.reload();
    await expectText(page.locator('.rows'), 'Tess Test');
    expect(await page.getByRole('button', { name: 'Test', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await check('contacts-test');
    // The switch holds across sections: the calls list shows the console's test call, badged, and no live call.
    await page.getByRole('link', { name: 'Calls', exact: true }).click();
    await page
      .getByRole('cell', { name: /\+14155550101/ })
      .first()
      .waitFor();
    const cells = (await page.locator('table').textContent()) ?? '';
    expect(cells).toContain('Test');
    expect(cells).not.toContain('+14155550102');
    expect(new URL(page.url()).searchParams.get('world')).toBe('test');
    await page.getByRole('button', { name: 'Live', exact: true }).click();
    await page
      .getByRole('cell', { name: /\+14155550102/ })
      .first()
      .waitFor();
    expect(await page.locator('table .badge-test').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('world')).toBeNull();
    // Back returns to the world shown before the switch.
    await page.goBack();
    await page.locator('table .badge-test').first().waitFor();
    expect(new URL(page.url()).searchParams.get('world')).toBe('test');
    await page.getByRole('button', { name: 'Live', exact: true }).click();
    await page.locator('table .badge-test').first().waitFor({ state: 'detached' });
  });

  it('signs out, and the old session cookie is refused', async () => {
    const [cookie] = (await context.cookies(t.baseUrl + '/admin/v1')).filter((c) => c.name === 'vc_console_session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    const replay = new HttpClient(t.baseUrl, { cookie: `${cookie.name}=${cookie.value}` });
    expect((await replay.get('/admin/v1/organizations')).status).toBe(401);
    await page.goto(url(`/orgs/${orgId}`));
    await page.waitForURL(/\/console\/sign-in$/);
    expect(cspViolations).toEqual([]);
  });

  it('serves the console with a strict Content-Security-Policy', async () => {
    const res = await fetch(url('/orgs'));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root">');
    // Its icon is inline (a data: image the policy allows): no load asks for a /favicon.ico that is not there.
    expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg [^"]+%3C\/svg%3E"/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
