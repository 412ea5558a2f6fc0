import type { Page } from 'playwright-core';
import { TestApp, startTestApp } from '../support/test-app';
import { openPage, seriousViolations } from './browser';

/** The API reference the service serves at /docs (Swagger UI) in Chromium: axe finds no serious violation. */
describe('API reference (/docs) in Chromium', () => {
  let t: TestApp;
  let page: Page;
  let cspViolations: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    t = await startTestApp();
    ({ page, cspViolations, close } = await openPage());
  }, 120_000);

  afterAll(async () => {
    await close?.();
    await t?.close();
  });

  it('renders the operations and has no serious or critical axe violation, folded or with two opened', async () => {
    await page.goto(`${t.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // A read and a create opened: parameters, a request body with its example, responses with theirs.
    await page.locator('.opblock-get .opblock-summary-control').first().click();
    await page.locator('.opblock-post .opblock-summary-control').first().click();
    await page
      .locator('.opblock-post .opblock-body .body-param__example, .opblock-post .opblock-body .model-example')
      .first()
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
