import type { Page } from 'playwright-core';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { ensureConsoleBuilt, expectText, seriousViolations, signedInPage } from './browser';

/** A case's versions on its page in Chromium against the real app: listed newest first, a prompt diff per version. */
describe('console in Chromium: case versions', () => {
  let t: TestApp;
  let org: TestOrg;
  let caseId: string;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    ensureConsoleBuilt();
    t = await startTestApp();
    org = await createOrg(t, { name: 'Versions org' });
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
});
