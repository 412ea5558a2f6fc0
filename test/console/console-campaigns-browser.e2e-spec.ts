import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { checkPage, ensureConsoleBuilt, expectText, openPage, signIn } from './browser';

/**
 * A campaign run from the browser against the real app: a CSV of 20 rows whose 2 bad ones are named before
 * anything is created, the campaign created from the other 18, started, watched to `completed`, an entry's call
 * opened; cancelling asks "Cancel campaign" or "Keep running". axe at 1280 px and 390 px.
 */
describe('console campaigns in Chromium: CSV upload to completed', () => {
  let t: TestApp;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let org: CallsOrg;
  let campaignId: string;
  let cspViolations: string[];

  beforeAll(async () => {
    ensureConsoleBuilt();
    t = await startTestApp();
    ({ page, cspViolations, close: closeBrowser } = await openPage());
    org = await callingOrg(t);
    await signIn(page, t.baseUrl, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
  });

  const url = (path: string) => `${t.baseUrl}/console/orgs/${org.id}${path}`;

  const check = (name: string) => checkPage(page, name, { fullPage: true });

  /** 20 rows: line 8 has no valid number, line 14 a variable over the API's 1000-character bound. */
  function csv(): string {
    const lines = ['to,name'];
    for (let i = 0; i < 20; i++) {
      const line = i + 2;
      if (line === 8) lines.push('+1 555,Broken');
      else if (line === 14) lines.push(`+14155550${String(300 + i)},${'x'.repeat(1001)}`);
      else lines.push(`+1 (415) 555-0${String(300 + i)},Person ${i}`);
    }
    return lines.join('\n') + '\n';
  }

  it('names the 2 bad rows of a 20-row CSV and creates the campaign from the other 18', async () => {
    await page.goto(url('/campaigns'));
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.waitForURL(/\/campaigns\/new$/);
    await page.getByLabel('Name', { exact: true }).fill('Flu shots');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv()) });
    const report = page.getByTestId('csv-report');
    await expectText(report, '18 rows ready, 2 refused');
    const bad = await page.getByTestId('bad-rows').locator('li').allTextContents();
    expect(bad).toEqual([
      expect.stringMatching(/^Line 8: to: "\+1 555" is not a phone number in E\.164 format/),
      expect.stringMatching(/^Line 14: variables values must be at most 1000 characters \("name"\)/),
    ]);
    // Nothing was created while the file was checked.
    expect((await org.api.get('/api/v1/campaigns')).body.data).toEqual([]);
    await page.getByLabel('Retry unanswered calls').check();
    await page.getByLabel('Delay before a retry (seconds)').fill('0');
    await page.getByLabel('Calls at once').fill('5');
    await check('campaign-new');
    await page.getByRole('button', { name: 'Create campaign from 18 rows' }).click();
    await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}$/);
    campaignId = page.url().split('/').pop()!;
    await expectText(page.locator('h1'), 'draft');
    const created = (await org.api.get(`/api/v1/campaigns/${campaignId}`)).body.data;
    expect(created).toMatchObject({
      name: 'Flu shots',
      from: org.from,
      audience: { rowCount: 18 },
      maxConcurrent: 5,
      retry: { on: ['customer-did-not-answer', 'customer-busy'], delaySeconds: 0, maxAttempts: 3 },
      window: null,
    });
    const entries = (await org.api.get(`/api/v1/campaigns/${campaignId}/entries?limit=100`)).body.data;
    expect(entries).toHaveLength(18);
    // Normalised by the same rule the API applies; the bad lines' numbers are not among them.
    expect(entries.map((e: { to: string }) => e.to)).toContain('+14155550300');
    expect(entries.map((e: { to: string }) => e.to)).not.toContain('+14155550312');
  });

  it('starts it and watches it reach completed, outcomes and entries filled in without a reload', async () => {
    await page.goto(url(`/campaigns/${campaignId}`));
    await page.getByRole('button', { name: 'Start' }).click();
    await expectText(page.locator('h1'), 'completed', 120_000);
    await expectText(page.getByTestId('campaign-counts'), '18 of 18 done');
    const outcomes = await page.getByTestId('campaign-outcomes').locator('tbody tr').allTextContents();
    const total = outcomes.reduce((sum, row) => sum + Number(/(\d+)$/.exec(row)![1]), 0);
    expect(total).toBe(18);
    // Every entry's last attempt shows its outcome, without a reload.
    await page.waitForFunction(() => {
      const table = document.querySelector('[data-testid="campaign-entries"]');
      return table !== null && !/in progress|pending/.test(table.textContent ?? '');
    });
    await expectText(page.getByTestId('campaign-entries'), 'Call 1');
    expect(await page.getByTestId('campaign-entries').locator('tbody tr').count()).toBe(18);
    await check('campaign');
  });

  it("opens an entry's call from the campaign page", async () => {
    const first = page.getByTestId('campaign-entries').locator('tbody tr').first();
    const to = (await first.locator('td').first().textContent())!;
    await first.getByRole('link', { name: /^Call 1/ }).click();
    await page.waitForURL(/\/calls\/[0-9a-f-]{36}$/);
    const callId = page.url().split('/').pop()!;
    const call = (await org.api.get(`/api/v1/calls/${callId}`)).body.data;
    expect(call).toMatchObject({ callTo: to, campaignId });
    // Finished, whichever way the simulator ended it (a number ending in 9 ends in error).
    expect(['ended', 'error']).toContain(call.status);
    await expectText(page.locator('main'), to);
    // The same call is found on the calls page by its number, typed the way people write it.
    await page.goto(url('/calls'));
    await page.getByLabel('Phone number').fill(`+1 (415) 555-${to.slice(-4)}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(
      (id) =>
        document.querySelector(`a[href$="/calls/${id}"]`) !== null && document.querySelectorAll('tbody tr').length >= 1,
      callId,
    );
    const numbers = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(numbers)).toEqual(new Set([to]));
    await checkPage(page, 'calls-search');
  });

  it('says a call was not answered instead of waiting for a transcript, and reports no cost on the simulator', async () => {
    const entries = (await org.api.get(`/api/v1/campaigns/${campaignId}/entries?limit=100`)).body.data;
    const unanswered = entries
      .flatMap((e: { attempts: Array<{ callId: string; endedReason: string }> }) => e.attempts)
      .find((a: { endedReason: string }) => a.endedReason === 'customer-did-not-answer');
    expect(unanswered).toBeDefined();
    await page.goto(url(`/calls/${unanswered.callId}`));
    await expectText(page.locator('main'), 'Nobody answered. There is no conversation to show.');
    expect(await page.locator('main').textContent()).not.toContain('No transcript yet');
    await expectText(page.getByTestId('call-cost'), 'Not reported');
  });

  it('shows minutes talked next to minutes billed, with the rounding rule, and a labelled chart axis', async () => {
    await page.goto(url(''));
    const talked = Number(/([\d.]+) min/.exec((await page.getByTestId('minutes-talked').textContent())!)![1]);
    const billed = Number(/([\d.]+) min/.exec((await page.getByTestId('minutes-billed').textContent())!)![1]);
    const usage = (await org.api.get('/api/v1/usage')).body.data;
    expect(talked).toBeGreaterThan(0);
    expect(billed).toBeGreaterThanOrEqual(talked);
    expect(Math.round(usage.currentPeriodUsage.totalMins * 100) / 100).toBe(talked);
    await page.getByRole('button', { name: 'How billed minutes are rounded' }).focus();
    await expect(page.getByRole('tooltip').isVisible()).resolves.toBe(true);
    await expectText(page.getByRole('tooltip'), 'billed per started minute');
    await expectText(page.getByTestId('minutes-chart'), 'Minutes');
  });

  it('creates a campaign from a contact group', async () => {
    const group = await t.admin.post(`/admin/v1/organizations/${org.id}/contact-groups`, { name: 'Flu season' });
    expect(group.status).toBe(201);
    for (const [title, phone] of [
      ['Ann', '+14155550601'],
      ['Bob', '+14155550602'],
    ]) {
      const made = await org.api.post('/api/v1/contacts', { title, phone, groupIds: [group.body.data.id] });
      expect(made.status).toBe(201);
    }
    await page.goto(url('/campaigns/new'));
    await page.getByLabel('Name', { exact: true }).fill('Flu season calls');
    await page.getByLabel('A contact group').check();
    await page.getByLabel('Contact group', { exact: true }).selectOption({ label: 'Flu season (2)' });
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    expect((await org.api.get(`/api/v1/campaigns/${id}`)).body.data.audience).toEqual({
      groupId: group.body.data.id,
      contactIds: null,
      rowCount: null,
    });
    await expectText(page.getByTestId('campaign-counts'), '0 of 2 done');
    const entries = (await org.api.get(`/api/v1/campaigns/${id}/entries`)).body.data;
    expect(entries.map((e: { to: string }) => e.to).sort()).toEqual(['+14155550601', '+14155550602']);
  });

  it('asks "Cancel campaign" or "Keep running" before cancelling', async () => {
    // Created through the form with a calling window; cancelled before it is started.
    await page.goto(url('/campaigns/new'));
    await page.getByLabel('Name', { exact: true }).fill('To cancel');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from('to\n+14155550500\n') });
    await page.getByLabel('Call only inside a calling window').check();
    await page.getByLabel('sat').check();
    await page.getByLabel('Closes (local time)').fill('17:30');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByRole('button', { name: 'Create campaign from 1 row' }).click();
    await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    expect((await org.api.get(`/api/v1/campaigns/${id}`)).body.data.window).toEqual({
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
      start: '09:00',
      end: '17:30',
      timezone: 'Europe/Paris',
    });
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByRole('button', { name: 'Keep running' }).click();
    expect((await org.api.get(`/api/v1/campaigns/${id}`)).body.data.status).toBe('draft');
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page
      .getByRole('group', { name: 'Pending entries will never be called.' })
      .getByRole('button', { name: 'Cancel campaign' })
      .click();
    await expectText(page.locator('h1'), 'cancelled');
    expect((await org.api.get(`/api/v1/campaigns/${id}`)).body.data.status).toBe('cancelled');
    await page.goto(url('/campaigns'));
    await expectText(page.getByTestId(`campaign-${id}`), 'cancelled');
    await check('campaigns-list');
    expect(cspViolations).toEqual([]);
  });
  it('shows a campaign refused for rows missing a variable its case requires, naming each row', async () => {
    const reminder = await org.api.post('/api/v1/cases', {
      title: 'Dated reminder',
      prompt: 'Remind of {{date}}.',
      variables: [{ name: 'date', source: 'custom', required: true }],
    });
    expect(reminder.status).toBe(201);
    await page.goto(url('/campaigns/new'));
    await page.getByLabel('Name', { exact: true }).fill('No dates');
    await page.getByLabel('Case').selectOption({ label: 'Dated reminder' });
    await page.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'nodate.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('to\n+14155550601\n+14155550602\n'),
    });
    await page.getByRole('button', { name: 'Create campaign from 2 rows' }).click();
    const refusedRows = page.getByTestId('error-details').locator('li');
    await refusedRows.nth(1).waitFor();
    const refused = await refusedRows.allTextContents();
    expect(refused).toEqual([
      'audience.rows[0].variableValues.date: required by the case',
      'audience.rows[1].variableValues.date: required by the case',
    ]);
    expect((await org.api.get('/api/v1/campaigns')).body.data.map((c: { name: string }) => c.name)).not.toContain(
      'No dates',
    );
    await check('campaign-refused-rows');
  });
});
