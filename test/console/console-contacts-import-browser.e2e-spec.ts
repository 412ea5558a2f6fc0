import type { Page } from 'playwright-core';
import { TestOrg, createOrg } from '../support/factory';
import type { TestApp } from '../support/test-app';
import { checkPage, consoleInBrowser, expectText } from './browser';

/**
 * A contacts CSV imported from the browser against the real app: 1,503 rows sent as two batch requests (1,000 and
 * 503) each under its own Idempotency-Key; the refused and unreadable lines named by line number with the API's
 * reason, a repeated phone counted as already there; the same file again creates nothing.
 */
describe('console in Chromium: importing contacts from a CSV file', () => {
  const browser = consoleInBrowser();
  let t: TestApp;
  let page: Page;
  let cspViolations: string[];
  let org: TestOrg;

  beforeAll(async () => {
    ({ t, page, cspViolations } = browser);
    org = await createOrg(t);
  });

  /** Lines 2-1504: line 5 a phone that is not one, line 7 one cell, line 1100 no title, line 1400 line 2's phone. */
  function csv(): string {
    const lines = ['title,phone,tags,plan'];
    for (let line = 2; line <= 1504; line++) {
      const phone = `+1415${String(5_000_000 + line).padStart(7, '0')}`;
      if (line === 5) lines.push('Bad Phone,12,,');
      else if (line === 7) lines.push('Broken');
      else if (line === 1100) lines.push(`,${phone},,`);
      else if (line === 1400) lines.push('Same As Two,+14155000002,,');
      else if (line === 2) lines.push(`Vera Vip,${phone},vip;2026,gold`);
      else lines.push(`Person ${line},${phone},,`);
    }
    return lines.join('\n') + '\n';
  }

  const upload = () =>
    page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv()) });

  it('creates 1,499 contacts in two requests and names the 3 refused lines', async () => {
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/contacts`);
    await page.getByRole('link', { name: 'Import a CSV file' }).click();
    await page.waitForURL(/\/contacts\/import$/);
    await upload();
    await expectText(page.getByTestId('import-ready'), 'contacts.csv: 1502 rows to send, 1 unreadable.');
    await page.getByRole('button', { name: 'Import' }).click();
    const report = page.getByTestId('import-report');
    await expectText(report, '1499 created, 1 already there', 30_000);
    await expectText(report, '3 refused');
    const refused = await page.getByTestId('refused-lines').locator('li').allTextContents();
    expect(refused).toEqual([
      expect.stringMatching(/^Line 5: .*phone/),
      expect.stringMatching(/^Line 7: Too few fields/),
      expect.stringMatching(/^Line 1100: .*title/),
    ]);

    const { rows } = await t.db.query(
      'SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1 AND livemode = true',
      [org.id],
    );
    expect(rows[0].n).toBe(1499);
    const keys = await t.db.query('SELECT key FROM idempotency_keys WHERE organization_id = $1 ORDER BY key', [org.id]);
    expect(keys.rows.map((r) => r.key.replace(/^.*-(\d+)$/, '$1')).sort()).toEqual(['0', '1000']);
    const vera = await org.api.get('/api/v1/contacts?search=Vera');
    expect(vera.body.data[0]).toMatchObject({ title: 'Vera Vip', tags: ['vip', '2026'] });
    const detail = await org.api.get(`/api/v1/contacts/${vera.body.data[0].id}`);
    expect(detail.body.data.customFields).toEqual({ plan: 'gold' });
    await checkPage(page, 'contacts-import', { fullPage: true });
  });

  it('the same file again creates nothing: every good line is already there', async () => {
    // Opened by its address (the lazily loaded page is the first route matched): the router has a fallback to show.
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/contacts/import`);
    await page.getByLabel('CSV file', { exact: true }).waitFor();
    expect(warnings).toEqual([]);
    await upload();
    await page.getByRole('button', { name: 'Import' }).click();
    await expectText(page.getByTestId('import-report'), '0 created, 1500 already there', 30_000);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1', [org.id]);
    expect(rows[0].n).toBe(1499);
    expect(cspViolations).toEqual([]);
  });
});
