import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createAccount, eventually } from '../messaging/messaging-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { SCREENSHOTS, ensureConsoleBuilt, expectText, seriousViolations, signedInPage } from './browser';

/** The console's messaging page in Chromium: the chat agent set, a handed-off conversation answered by a person. */
describe('console in Chromium: the chat agent and a person taking over', () => {
  let t: TestApp;
  let closeBrowser: () => Promise<void>;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    t = await startTestApp();
    ({ page, close: closeBrowser } = await signedInPage(t.baseUrl));
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
  });

  it('turns the agent on, shows the hand-off, and sends a person\'s reply as senderType "agent"', async () => {
    const org = await createOrg(t);
    const account = await createAccount(t, org.id, { phoneNumberId: 'pn-console-chat' });
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/messaging`);
    const settings = page.getByRole('form', { name: 'Chat agent of Acme Dental' });
    await settings.getByLabel('Bot answers').check();
    await settings.getByLabel('Bot replies before hand-off').fill('5');
    await settings.getByRole('button', { name: 'Save chat agent' }).click();
    await expectText(settings.getByRole('status'), 'Chat agent saved.');
    const agent = await t.admin.get(`/admin/v1/messaging-accounts/${account.id}/chat-agent`);
    expect(agent.body.data).toMatchObject({ enabled: true, maxBotReplies: 5 });

    const inbound = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId: account.id,
      from: '+14155558800',
      name: 'Ann Lee',
      text: 'I need a person',
    });
    const conversationId = inbound.body.data.conversationId as string;
    await eventually(async () => {
      const c = await org.api.get(`/api/v1/messaging/conversations/${conversationId}`);
      return c.body.data.status === 'handed_off';
    });

    await page.reload();
    await expectText(page.locator('li', { hasText: 'Ann Lee' }), 'handed_off');
    await page.getByRole('button', { name: /Ann Lee/ }).click();
    await page.getByLabel('Reply', { exact: true }).fill('Hi Ann, Sam here.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expectText(page.locator('.conversation'), 'Hi Ann, Sam here.');
    await expectText(page.locator('.conversation'), 'agent');

    const detail = await org.api.get(`/api/v1/messaging/conversations/${conversationId}`);
    expect(detail.body.data.messages.map((m: { senderType: string; text: string }) => [m.senderType, m.text])).toEqual([
      ['user', 'I need a person'],
      ['agent', 'Hi Ann, Sam here.'],
    ]);
    await page.waitForSelector('[aria-busy="true"]', { state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'messaging-chat-agent-hand-off.png'), fullPage: true });
  });
});
