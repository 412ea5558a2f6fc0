import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import type { TestApp } from '../support/test-app';
import { checkPage, consoleInBrowser, expectText } from './browser';

/**
 * A campaign whose preflight refuses a row, created from the browser without it (`skipInvalidRows`): the page
 * offers it after the refusal, then shows the answer's refused rows by their CSV line and the duplicates removed.
 */
describe('console in Chromium: a campaign created without its refused rows', () => {
  const browser = consoleInBrowser();
  let t: TestApp;
  let page: Page;
  let cspViolations: string[];
  let org: CallsOrg;

  beforeAll(async () => {
    ({ t, page, cspViolations } = browser);
    org = await callingOrg(t);
  });

  it('offers skipInvalidRows after the refusal and shows refusedRows and duplicatesRemoved', async () => {
    const reminder = await org.api.post('/api/v1/cases', {
      title: 'Dated reminder',
      prompt: 'Remind of {{date}}.',
      variables: [{ name: 'date', source: 'custom', required: true }],
    });
    expect(reminder.status).toBe(201);
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/campaigns/new`);
    await page.getByLabel('Name', { exact: true }).fill('Some dates');
    await page.getByLabel('Case').selectOption({ label: 'Dated reminder' });
    // Line 3 lacks the date the case requires; line 4 repeats line 2's number.
    await page.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'dates.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('to,date\n+14155550701,May 1\n+14155550702,\n+14155550701,May 2\n+14155550703,May 3\n'),
    });
    await page.getByRole('button', { name: 'Create campaign from 4 rows' }).click();
    const offer = page.getByRole('group', { name: 'Refused rows' });
    await expectText(offer, '1 row cannot be called.');
    expect((await org.api.get('/api/v1/campaigns')).body.data).toEqual([]);

    await offer.getByRole('button', { name: 'Create without the refused rows' }).click();
    const report = page.getByTestId('created-report');
    await expectText(report, 'created with 2 entries: 1 refused row left out, 1 duplicate number removed.');
    expect(await page.getByTestId('refused-rows').locator('li').allTextContents()).toEqual([
      'Line 3: variableValues.date required by the case',
    ]);
    const campaigns = (await org.api.get('/api/v1/campaigns')).body.data;
    expect(campaigns).toHaveLength(1);
    expect(campaigns[0]).toMatchObject({ name: 'Some dates', counts: { total: 2 } });
    await checkPage(page, 'campaign-skip-invalid-rows', { fullPage: true });

    await report.getByRole('link', { name: 'Open the campaign' }).click();
    await page.waitForURL(new RegExp(`/campaigns/${campaigns[0].id}$`));
    expect(cspViolations).toEqual([]);
  });
});
