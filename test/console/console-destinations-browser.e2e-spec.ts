import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { checkPage, ensureConsoleBuilt, expectText, signedInPage } from './browser';

/**
 * The destinations page in Chromium against the real app (docs/contracts/destinations.md): the defaults shown,
 * a refused save named at its field, the rules saved and enforced on the next call, a class opted in and out.
 */
describe('console in Chromium: destination rules', () => {
  let t: TestApp;
  let org: CallsOrg;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    ensureConsoleBuilt();
    t = await startTestApp();
    org = await callingOrg(t);
    ({ page, cspViolations, close: closeBrowser } = await signedInPage(t.baseUrl));
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
  });

  const rules = async () => (await t.admin.get(`/admin/v1/organizations/${org.id}/destination-rules`)).body.data;
  const form = () => page.getByRole('form', { name: 'Destination rules' });

  it('shows the defaults, names a refused field, saves the rules, which the next call obeys', async () => {
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/destinations`);
    await expectText(page.getByTestId('blocked-ranges'), 'NANP 900: premium-rate services (NANPA)');
    expect(await form().getByLabel('Satellite phones').isChecked()).toBe(false);
    expect(await form().getByLabel('Call only these countries').isChecked()).toBe(false);
    await checkPage(page, 'destinations', { fullPage: true });

    // A prefix that is not one: the API's 400 is shown under the field it names, nothing is saved.
    await form().getByLabel('Blocked prefixes').fill('+1268\n44843');
    await form().getByRole('button', { name: 'Save rules' }).click();
    await expectText(form().locator('.field-problem'), 'blockedPrefixes');
    expect((await rules()).blockedPrefixes).toEqual([]);

    await form().getByLabel('Blocked prefixes').fill('+1268\n+44843');
    await form().getByLabel('Call only these countries').check();
    await form().getByLabel('Allowed countries').fill('us, ca');
    await form().getByLabel('Satellite phones').check();
    await form().getByRole('button', { name: 'Save rules' }).click();
    await expectText(form().getByRole('status'), 'Saved.');
    expect(await rules()).toMatchObject({
      allowedCountries: ['US', 'CA'],
      blockedPrefixes: ['+1268', '+44843'],
      allowedClasses: ['satellite'],
    });
    await expectText(page.getByTestId('blocked-ranges'), 'allowed (opted in)');
    await checkPage(page, 'destinations-set', { fullPage: true });

    // The saved rules hold for the API: a satellite number now goes through, a British one does not.
    expect((await org.api.post('/api/v1/calls', { to: '+881612345678', from: org.from })).status).toBe(201);
    const abroad = await org.api.post('/api/v1/calls', { to: '+442071234567', from: org.from });
    expect(abroad.body.error.code).toBe('DESTINATION_NOT_ALLOWED');

    // Reloaded, the page shows what is stored; opting out again blocks the class.
    await page.reload();
    expect(await form().getByLabel('Satellite phones').isChecked()).toBe(true);
    expect(await form().getByLabel('Allowed countries').inputValue()).toBe('US, CA');
    await form().getByLabel('Satellite phones').uncheck();
    await form().getByLabel('Call only these countries').uncheck();
    await form().getByRole('button', { name: 'Save rules' }).click();
    await expectText(form().getByRole('status'), 'Saved.');
    expect(await rules()).toMatchObject({ allowedCountries: null, allowedClasses: [] });
    const satellite = await org.api.post('/api/v1/calls', { to: '+881612345678', from: org.from });
    expect(satellite.body.error.code).toBe('DESTINATION_NOT_ALLOWED');
    expect(cspViolations).toEqual([]);
  });
});
