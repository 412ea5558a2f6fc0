import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { FakeGraphApi } from '../messaging/fake-graph-api';
import { createAccount, createTemplate } from '../messaging/messaging-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { SCREENSHOTS, ensureConsoleBuilt, expectText, seriousViolations, signedInPage } from './browser';

/** The console's messaging page in Chromium against the real app on WhatsApp (the strict fake Graph API). */
describe('console in Chromium: messaging templates synced from WhatsApp', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let closeBrowser: () => Promise<void>;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    graph = new FakeGraphApi();
    await graph.start();
    graph.grant('EAAG-console-token', '606540352242922', '602290129340398');
    t = await startTestApp({
      env: {
        MESSAGING_PROVIDER: 'whatsapp',
        WHATSAPP_GRAPH_URL: `${graph.url}/v25.0`,
        WHATSAPP_ACCESS_TOKEN: 'EAAG-console-token',
        WHATSAPP_APP_SECRET: 'console-app-secret',
        WHATSAPP_VERIFY_TOKEN: 'console-verify-token',
      },
    });
    ({ page, close: closeBrowser } = await signedInPage(t.baseUrl));
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
    await graph?.stop();
  });

  it("'Sync templates' replaces the account's templates with WhatsApp's and shows them", async () => {
    const org = await createOrg(t);
    const account = await createAccount(t, org.id, { phoneNumberId: '606540352242922', wabaId: '602290129340398' });
    await createTemplate(t, account.id, { name: 'retired', language: 'en', body: 'Gone' });
    graph.addTemplate('602290129340398', {
      name: 'visit_reminder',
      language: 'en_US',
      status: 'APPROVED',
      body: 'See you {{1}}',
    });
    graph.addTemplate('602290129340398', {
      name: 'visit_reminder',
      language: 'es',
      status: 'PENDING',
      body: 'Hasta {{1}}',
    });

    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/messaging`);
    await page.getByRole('button', { name: 'Sync templates of Acme Dental' }).click();
    const result = page.getByRole('status').filter({ hasText: 'templates synced' });
    await expectText(result, '2 templates synced from WhatsApp, 1 removed.');
    await expectText(result, 'visit_reminder');
    await expectText(result, 'PENDING');

    const stored = await t.db.query(
      'SELECT name, language, status FROM messaging_templates WHERE account_id = $1 ORDER BY language',
      [account.id],
    );
    expect(stored.rows).toEqual([
      { name: 'visit_reminder', language: 'en_US', status: 'APPROVED' },
      { name: 'visit_reminder', language: 'es', status: 'PENDING' },
    ]);
    await page.waitForSelector('[aria-busy="true"]', { state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'messaging-templates-synced.png'), fullPage: true });
  });
});
