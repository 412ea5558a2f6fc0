import type { Page } from 'playwright-core';
import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { ensureConsoleBuilt, seriousViolations, signedInPage } from './browser';

/** The console's "Sign out everyone" in Chromium: every session ends, the page's own and another operator's. */
describe('console in Chromium: sign out everyone', () => {
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

  it('asks once, then ends every session and returns to sign-in', async () => {
    // Another operator, signed in elsewhere.
    const other = await t.anonymous.post('/admin/v1/session', { token: ADMIN_TOKEN });
    const otherSession = new HttpClient(t.baseUrl, { cookie: (other.headers.get('set-cookie') ?? '').split(';')[0] });
    expect((await otherSession.get('/admin/v1/session')).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out everyone' }).click();
    // Nothing ended yet: the first click only asks.
    expect((await otherSession.get('/admin/v1/session')).status).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'End all sessions' }).click();
    await page.waitForURL(/\/console\/sign-in$/);

    expect((await otherSession.get('/admin/v1/session')).status).toBe(401);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM console_sessions WHERE revoked_at IS NULL');
    expect(rows[0].n).toBe(0);
    // The page's own cookie is refused too: the organizations page sends it back to sign-in.
    await page.goto(`${t.baseUrl}/console/orgs`);
    await page.waitForURL(/\/console\/sign-in$/);
  });
});
