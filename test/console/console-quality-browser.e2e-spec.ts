import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { ensureConsoleBuilt, expectText, seriousViolations, signedInPage } from './browser';

/**
 * The quality loop in Chromium against the real app: a case's versions on its page (newest first, a prompt diff
 * per version), and an A/B campaign's variants side by side on the campaign's page.
 */
describe('console in Chromium: case versions and A/B variants', () => {
  let t: TestApp;
  let org: CallsOrg;
  let caseId: string;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    ensureConsoleBuilt();
    t = await startTestApp();
    org = await callingOrg(t);
    const created = await org.api.post('/api/v1/cases', {
      title: 'Reminder',
      prompt: 'Greet the patient.\nRemind them of the visit.\nSay goodbye.',
    });
    caseId = created.body.data.id;
    await org.api.patch(`/api/v1/cases/${caseId}`, {
      prompt: 'Greet the patient.\nConfirm the visit time.\nSay goodbye.',
    });
    ({ page, cspViolations, close: closeBrowser } = await signedInPage(t.baseUrl));
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
  });

  it('lists the versions newest first and shows what the latest changed in the prompt, line by line', async () => {
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/cases/${caseId}`);
    await expectText(page.getByTestId('case-versions'), 'Version 2');
    const versions = await page.getByTestId('case-versions').getByRole('button').allTextContents();
    expect(versions).toEqual(['Version 2', 'Version 1']);
    const diff = page.getByTestId('prompt-diff');
    await expectText(diff, '+ Confirm the visit time.');
    expect(await diff.locator('.diff-removed').allTextContents()).toEqual(['- Remind them of the visit.\n']);
    expect(await diff.locator('.diff-added').allTextContents()).toEqual(['+ Confirm the visit time.\n']);
    expect(await diff.locator('.diff-same').count()).toBe(2);

    await page.getByRole('button', { name: 'Version 1' }).click();
    await expectText(page.getByRole('heading', { level: 3 }), 'Prompt of version 1');
    expect(await diff.locator('.diff-added, .diff-removed').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it("shows an A/B campaign's variants side by side: one column per version, its weight and entries", async () => {
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'Wording test',
      from: org.from,
      caseId,
      variants: [
        { caseVersion: 1, weight: 30 },
        { caseVersion: 2, weight: 70 },
      ],
      audience: { rows: Array.from({ length: 10 }, (_, i) => ({ to: `+1415558${String(i).padStart(4, '0')}` })) },
    });
    expect(created.status).toBe(201);
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/campaigns/${created.body.data.id}`);
    const table = page.getByTestId('campaign-variants');
    await expectText(table, 'Version 2');
    expect(await table.locator('thead th').allTextContents()).toEqual(['Figure', 'Version 1', 'Version 2']);
    expect(await table.locator('tr', { hasText: 'Weight' }).locator('td').allTextContents()).toEqual(['30', '70']);
    const entries = (await table.locator('tr', { hasText: 'Entries' }).locator('td').allTextContents()).map(Number);
    expect(entries[0] + entries[1]).toBe(10);
    await expectText(page.getByTestId('campaign-p-value'), 'p-value: not yet');
    expect(await seriousViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
