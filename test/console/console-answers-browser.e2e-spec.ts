import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import type { TestApp } from '../support/test-app';
import { checkPage, consoleInBrowser, expectText } from './browser';

/**
 * Answer outcomes in Chromium against the real app (docs/answer-detection.md, docs/number-health.md): a reviewer
 * labels calls from their page, the detection report shows the matrix, precision and recall those labels give,
 * and a number's health page shows its status and daily figures. Simulator numbers: last digit 0 a person
 * answers, 7 a voicemail.
 */
describe('console in Chromium: call labels, the detection report and number health', () => {
  const browser = consoleInBrowser({ env: { SIMULATOR_RING_MS: '10', SIMULATOR_CALL_MS: '50' } });
  let t: TestApp;
  let page: Page;
  let cspViolations: string[];
  let org: CallsOrg;
  const calls: Record<'person' | 'machine', string> = { person: '', machine: '' };

  beforeAll(async () => {
    ({ t, page, cspViolations } = browser);
    org = await callingOrg(t);
    for (const [name, to] of [
      ['person', '+14155550100'],
      ['machine', '+14155550107'],
    ] as const) {
      const placed = await org.api.post('/api/v1/calls', { to, from: org.from });
      expect(placed.status).toBe(201);
      calls[name] = placed.body.data.id;
      await waitForCall(org, calls[name], finished);
    }
  });

  const url = (path: string) => `${t.baseUrl}/console/orgs/${org.id}${path}`;

  /** Labels the call from its page, as a reviewer does after listening to the recording. */
  async function label(callId: string, answeredBy: string, note: string): Promise<void> {
    await page.goto(url(`/calls/${callId}`));
    const form = page.getByRole('form', { name: 'Who answered' });
    await expectText(form.getByTestId('call-label'), 'Not labelled yet.');
    await form.getByLabel('Who answered, as heard').selectOption(answeredBy);
    await form.getByLabel('Note').fill(note);
    await form.getByRole('button', { name: 'Save label' }).click();
    await expectText(form.getByTestId('call-label'), `(${answeredBy})`);
  }

  it('labels two calls from their pages; the public API reads the labels back', async () => {
    await label(calls.machine, 'voicemail', 'greeting and a beep');
    await checkPage(page, 'call-label', { fullPage: true });
    // The person's call heard as a voicemail: a miss of the detection.
    await label(calls.person, 'voicemail', 'a recorded greeting');
    const read = await org.api.get(`/api/v1/calls/${calls.person}/label`);
    expect(read.body.data).toMatchObject({ answeredBy: 'voicemail', note: 'a recorded greeting' });

    // A second save replaces the first.
    const form = page.getByRole('form', { name: 'Who answered' });
    await form.getByLabel('Who answered, as heard').selectOption('screener');
    await form.getByRole('button', { name: 'Save label' }).click();
    await expectText(form.getByTestId('call-label'), '(screener)');
    expect((await org.api.get(`/api/v1/calls/${calls.person}/label`)).body.data.answeredBy).toBe('screener');
    await form.getByLabel('Who answered, as heard').selectOption('voicemail');
    await form.getByRole('button', { name: 'Save label' }).click();
    await expectText(form.getByTestId('call-label'), '(voicemail)');
  });

  it('shows the confusion matrix with voicemail precision and recall, and its filters', async () => {
    await page.goto(url('/calls'));
    await page.getByRole('link', { name: 'Answer detection' }).click();
    const simulator = page.getByTestId('detection-simulator');
    await expectText(simulator, '2 labelled calls');
    // Detected voicemail once, heard voicemail twice: precision 1/1, recall 1/2.
    await expectText(simulator.getByTestId('precision'), '100 %');
    await expectText(simulator.getByTestId('recall'), '50 %');
    const cells = await page
      .getByTestId('matrix-simulator')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.children).map((c) => c.textContent)));
    expect(cells).toEqual([
      ['human', '0', '0', '0', '0'],
      ['voicemail', '1', '1', '0', '0'],
      ['screener', '0', '0', '0', '0'],
      ['unknown', '0', '0', '0', '0'],
    ]);
    const api = await org.api.get('/api/v1/reports/answer-detection');
    expect(api.body.data.platforms[0]).toMatchObject({ labelled: 2, voicemailPrecision: 1, voicemailRecall: 0.5 });
    await checkPage(page, 'answer-detection', { fullPage: true });

    await page.getByLabel('Voice platform').selectOption('vapi');
    await expectText(page.locator('main'), 'No labelled call matches these filters.');
    await page.getByLabel('Voice platform').selectOption('');
    await page.getByLabel('Calls to').fill('2020-01-01T00:00');
    await expectText(page.locator('main'), 'No labelled call matches these filters.');
  });

  it("shows a number's status on the numbers list and its daily figures on its health page", async () => {
    await page.goto(url('/numbers'));
    const link = page.getByRole('link', { name: `Health of ${org.from}` });
    await expectText(link, 'healthy');
    await link.click();
    await expectText(page.getByRole('heading', { level: 1 }), `Health of ${org.from}`);
    await expectText(page.getByTestId('health-status'), 'Healthy.');
    const today = new Date().toISOString().slice(0, 10);
    const row = await page
      .getByTestId('health-days')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.children).map((c) => c.textContent)));
    expect(row).toEqual([[today, '2', '1', '1', '0', '0', '50 %', expect.stringMatching(/^\d+ s$/)]]);
    expect(await page.getByTestId('health-chart').locator('rect').count()).toBe(4);
    await checkPage(page, 'number-health', { fullPage: true });
    expect(cspViolations).toEqual([]);
  });
});
