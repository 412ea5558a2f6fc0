import type { Locator } from 'playwright-core';
import { scenarioCase } from '../scenarios/scenario-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { checkPage, consoleInBrowser, expectText, seriousViolations } from './browser';

/**
 * Scenarios on a case's page in Chromium against the real app, in the test world (the simulator plays the runs):
 * written through the form (its checks beside each field, the API's refusal beside the field it names), run all
 * at once and one by one, each run's expectations, transcript, duration and cost shown once the polling sees it
 * end; edited and deleted. axe at 1280 and 390 px.
 */
describe('console in Chromium: scenarios on a case', () => {
  const opened = consoleInBrowser();
  let org: TestOrg;
  let caseId: string;

  beforeAll(async () => {
    org = await createOrg(opened.t);
    const testKey = await org.keyWith(['*'], { environment: 'test' });
    caseId = await scenarioCase(opened.t, org.id, testKey.api);
  });

  const form = (name: string) => opened.page.getByRole('form', { name });
  const field = (scope: Locator, label: string) => scope.locator('.field').filter({ hasText: label }).first();
  const scenario = (name: string) => opened.page.getByTestId('scenario').filter({ hasText: name });
  /** The status of the scenario's latest run, as its badge reads. */
  const verdict = (name: string) => scenario(name).getByTestId('scenario-run').locator('p .badge');

  it('writes a scenario that passes and one that fails, runs them all, and shows each verdict and transcript', async () => {
    const { page, t } = opened;
    await page.goto(`${t.baseUrl}/console/orgs/${org.id}/cases/${caseId}?world=test`);
    await expectText(page.locator('#case-scenarios-h').locator('..'), 'No scenarios yet.');

    await page.getByRole('button', { name: 'New scenario' }).click();
    const create = form('New scenario');
    await create.getByRole('button', { name: 'Create scenario' }).click();
    await expectText(field(create, 'Name').locator('.field-problem'), 'A name of 1-200 characters');
    await expectText(field(create, "The user's turns").locator('.field-problem'), 'Write at least one');
    await create.getByLabel("The user's turns").fill(Array.from({ length: 21 }, (_, i) => `Turn ${i}`).join('\n'));
    await expectText(field(create, "The user's turns").locator('.field-problem'), 'At most 20 turns (21 given)');

    await create.getByLabel('Name').fill('Books Tuesday');
    await create.getByLabel("The user's turns").fill('Can I book for Tuesday?');
    await create.getByLabel('Variables').fill('name=Ada');
    await create.getByLabel('A reply includes').fill('Acme\ntuesday');
    await create.getByLabel('No reply includes').fill('refund');
    await create.getByRole('button', { name: 'Add a tool call' }).click();
    await create.getByLabel('Tool 1 name').fill('book');
    await create.getByLabel('Tool 1 arguments include (JSON, optional)').fill('{"text": "TUESDAY"');
    await create.getByRole('button', { name: 'Create scenario' }).click();
    await expectText(create.getByRole('group', { name: 'Tool calls' }).locator('.field-problem'), 'not valid JSON');
    await create.getByLabel('Tool 1 arguments include (JSON, optional)').fill('{"text": "TUESDAY"}');
    await create.getByLabel('Hand-off to a person').selectOption('false');
    await create.getByRole('button', { name: 'Create scenario' }).click();
    await expectText(scenario('Books Tuesday'), 'Not run yet.');

    await page.getByRole('button', { name: 'New scenario' }).click();
    const second = form('New scenario');
    await second.getByLabel('Name').fill('Expects a refund');
    await second.getByLabel("The user's turns").fill('I want my money back');
    // A NUL character passes the form's checks; the API refuses it, naming the field, and the form shows it there.
    await second.getByLabel('Variables').fill('name=A\u0000da');
    await second.getByLabel('A reply includes').fill('refund');
    await second.getByRole('button', { name: 'Create scenario' }).click();
    await expectText(field(second, 'Variables').locator('.field-problem'), 'must not contain the NUL character');
    await expectText(second.getByRole('alert').last(), 'VALIDATION_ERROR');
    await second.getByLabel('Variables').fill('name=Ada');
    await second.getByRole('button', { name: 'Create scenario' }).click();
    await expectText(scenario('Expects a refund'), 'Not run yet.');

    await page.getByRole('button', { name: 'Run all' }).click();
    await expectText(verdict('Books Tuesday'), 'passed', 20_000);
    await expectText(verdict('Expects a refund'), 'failed', 20_000);

    const passed = scenario('Books Tuesday');
    const passedRows = passed.getByTestId('scenario-expectations').locator('tbody tr');
    expect(await passedRows.locator('td:nth-child(1)').allTextContents()).toEqual([
      'A reply includes',
      'A reply includes',
      'No reply includes',
      'Tool call',
      'Handed off',
    ]);
    expect(await passedRows.locator('td:nth-child(3)').allTextContents()).toEqual(Array(5).fill('passed'));
    expect(await passedRows.nth(3).locator('td:nth-child(4)').textContent()).toBe(
      'book {"text":"Can I book for Tuesday?"}',
    );
    expect(await passed.getByTestId('scenario-transcript').locator('li').allTextContents()).toEqual([
      'Assistant: Hi Ada, this is Acme Dental.',
      'User: Can I book for Tuesday?',
      'Assistant: Thanks Ada, you said: "Can I book for Tuesday?"Called book {"text":"Can I book for Tuesday?"}',
    ]);
    await expectText(passed.getByTestId('scenario-run'), 'Cost $0 (simulator)');
    expect(await passed.getByTestId('scenario-run').locator('p').first().textContent()).toMatch(
      /^passed Case version 2 · Duration \d+\.\d s · Cost \$0 \(simulator\)$/,
    );

    const failed = scenario('Expects a refund');
    expect(await failed.getByTestId('scenario-expectations').locator('tbody tr td').allTextContents()).toEqual([
      'A reply includes',
      '"refund"',
      'failed',
      '"Hi Ada, this is Acme Dental.\nThanks Ada, you said: "I want my money back""',
    ]);
    expect(await failed.getByTestId('scenario-transcript').locator('li').allTextContents()).toEqual([
      'Assistant: Hi Ada, this is Acme Dental.',
      'User: I want my money back',
      'Assistant: Thanks Ada, you said: "I want my money back"',
    ]);

    await checkPage(page, 'case-scenarios', { fullPage: true });
    expect(opened.cspViolations).toEqual([]);
  });

  it('edits a scenario and runs it alone until it passes; deletes one', async () => {
    const { page } = opened;
    await page.getByRole('button', { name: 'Edit Expects a refund' }).click();
    const edit = form('Edit scenario Expects a refund');
    expect(await edit.getByLabel('A reply includes').inputValue()).toBe('refund');
    expect(await edit.getByLabel('Variables').inputValue()).toBe('name=Ada');
    await edit.getByLabel('A reply includes').fill('money back');
    await edit.getByRole('button', { name: 'Save scenario' }).click();
    await expectText(scenario('Expects a refund'), 'failed');

    await page.getByRole('button', { name: 'Run Expects a refund' }).click();
    await expectText(verdict('Expects a refund'), 'passed', 20_000);
    expect(
      await scenario('Expects a refund').getByTestId('scenario-expectations').locator('tbody tr td').allTextContents(),
    ).toEqual(['A reply includes', '"money back"', 'passed', '"Thanks Ada, you said: "I want my money back""']);

    await page.getByRole('button', { name: 'Delete Books Tuesday' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await expectText(page.getByTestId('scenarios'), 'Expects a refund');
    await page.getByTestId('scenario').filter({ hasText: 'Books Tuesday' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('scenario').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
