import type { Page } from 'playwright-core';
import { createAccount, userWrites } from '../messaging/messaging-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import type { TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { checkPage, consoleInBrowser, expectText } from './browser';

/**
 * The chat inbox in Chromium against the real app: a conversation and a message that arrive while the page is
 * open show up without a reload (the page polls every 2 s), the status filter, and Hand off / Close / Reopen
 * moving the conversation as the public routes do. axe at 1280 px and 390 px, no CSP violation.
 */
describe('console in Chromium: the live chat inbox', () => {
  const browser = consoleInBrowser();
  let t: TestApp;
  let page: Page;
  let cspViolations: string[];
  let org: TestOrg;
  let accountId: string;

  beforeAll(async () => {
    ({ t, page, cspViolations } = browser);
    org = await createOrg(t);
    accountId = (await createAccount(t, org.id, { phoneNumberId: 'pn-console-inbox' })).id;
  });

  const statusOf = async (id: string) =>
    (await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data.status as string;
  const row = (name: string) => page.getByRole('list', { name: 'Conversations' }).locator('li', { hasText: name });

  it('shows a new conversation and a new message without a reload', async () => {
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/messaging`);
    await expectText(page.locator('#conv-h ~ p.empty'), 'No conversations here yet.');
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));

    const id = await userWrites(t, accountId, '+14155558870', 'Is my order ready?', { name: 'Dana Diaz' });
    await expectText(row('Dana Diaz'), 'Is my order ready?');
    await page.getByRole('button', { name: 'Dana Diaz' }).click();
    await expectText(page.getByRole('list', { name: 'Messages with Dana Diaz' }), 'Is my order ready?');

    await userWrites(t, accountId, '+14155558870', 'Order 4411, thanks', { name: 'Dana Diaz' });
    await expectText(page.getByRole('list', { name: 'Messages with Dana Diaz' }), 'Order 4411, thanks');
    await expectText(row('Dana Diaz'), '2 messages');
    expect(navigations).toEqual([]);
    expect(await statusOf(id)).toBe('active');
    await checkPage(page, 'messaging-inbox-live', { fullPage: true });
  });

  it('hands off, closes and reopens from the buttons; the status filter shows each state', async () => {
    const id = (await org.api.get('/api/v1/messaging/conversations')).body.data[0].id as string;
    const moves = page.getByRole('group', { name: 'Move the conversation with Dana Diaz' });

    await moves.getByRole('button', { name: 'Hand off' }).click();
    await expectText(row('Dana Diaz'), 'handed_off');
    expect(await statusOf(id)).toBe('handed_off');
    await page.getByLabel('Status', { exact: true }).selectOption('handed_off');
    await expectText(row('Dana Diaz'), 'handed_off');
    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await expectText(page.locator('#conv-h ~ p.empty'), 'No conversations here yet.');

    // The thread stays open across filters.
    await page.getByLabel('Status', { exact: true }).selectOption('');
    expect(await page.getByRole('button', { name: 'Dana Diaz' }).getAttribute('aria-expanded')).toBe('true');
    await moves.getByRole('button', { name: 'Close' }).click();
    await expectText(row('Dana Diaz'), 'closed');
    expect(await statusOf(id)).toBe('closed');
    // The list's row and the thread's buttons are drawn from separate reads: wait for the buttons' own redraw.
    await waitUntil(
      'the Close button gone',
      async () => (await moves.getByRole('button', { name: 'Close' }).count()) === 0,
    );
    expect(await moves.getByRole('button').allTextContents()).toEqual(['Reopen']);

    await page.getByLabel('Status', { exact: true }).selectOption('closed');
    await expectText(row('Dana Diaz'), 'closed');
    await moves.getByRole('button', { name: 'Reopen' }).click();
    await expectText(page.locator('#conv-h ~ p.empty'), 'No conversations here yet.');
    expect(await statusOf(id)).toBe('active');
    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await expectText(row('Dana Diaz'), 'active');
    await checkPage(page, 'messaging-inbox-filtered', { fullPage: true });
    expect(cspViolations).toEqual([]);
  });
});
