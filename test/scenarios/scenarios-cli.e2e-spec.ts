import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { createScenario, scenarioCase } from './scenario-fixtures';

const CLI = join(__dirname, '..', '..', 'scripts', 'scenarios.js');

/** Runs the CLI as a customer's CI would, to its exit. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm run scenarios` against a running test app (the simulator answers a test key's runs). */
describe('scenarios CLI', () => {
  let t: TestApp;
  let key: string;
  let caseId: string;
  const passing = {
    name: 'Books Tuesday',
    variables: { name: 'Ada' },
    turns: ['Can I book for Tuesday?'],
    expect: { replyIncludes: ['Tuesday'], toolCalls: [{ name: 'book' }] },
  };
  beforeAll(async () => {
    t = await startTestApp();
    const org = await createOrg(t);
    const test = await org.keyWith(['*'], { environment: 'test' });
    key = test.key;
    caseId = await scenarioCase(t, org.id, test.api);
    await createScenario(test.api, { ...passing, caseId });
  });
  afterAll(() => t?.close());

  const run = (extra: string[] = []) => cli(['--base-url', t.baseUrl, '--key', key, '--case', caseId, ...extra]);

  it('exits 0 when every expectation passes, printing one line per expectation', async () => {
    const res = await run();
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      'PASS  "Books Tuesday" replyIncludes "Tuesday"',
      'PASS  "Books Tuesday" toolCall {"name":"book"}',
      '1 scenarios (case version 2): 1 passed, 0 failed',
    ]);
  });

  it('exits 1 when an expectation fails, showing what was seen', async () => {
    const org = await createOrg(t);
    const test = await org.keyWith(['*'], { environment: 'test' });
    const failingCase = await scenarioCase(t, org.id, test.api);
    await createScenario(test.api, { ...passing, caseId: failingCase });
    await createScenario(test.api, {
      caseId: failingCase,
      name: 'Refunds',
      turns: ['Money back'],
      expect: { replyIncludes: ['refund'] },
    });
    const res = await cli(['--base-url', t.baseUrl, '--key', test.key, '--case', failingCase]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('PASS  "Books Tuesday" replyIncludes "Tuesday"');
    expect(res.stdout).toContain(
      'FAIL  "Refunds" replyIncludes "refund" (seen: "Hi , this is Acme Dental.\\nThanks there, you said: \\"Money back\\"")',
    );
    expect(res.stdout).toContain('2 scenarios (case version 2): 1 passed, 1 failed');
  });

  it('exits 2 when the runs cannot be started: a refused key, an unknown case, missing arguments', async () => {
    const badKey = await cli(['--base-url', t.baseUrl, '--key', 'nope', '--case', caseId]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('401');
    const unknownCase = await cli([
      '--base-url',
      t.baseUrl,
      '--key',
      key,
      '--case',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(unknownCase.code).toBe(2);
    expect(unknownCase.stderr).toContain('404 NOT_FOUND');
    const missing = await cli(['--base-url', t.baseUrl, '--key', key]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('usage: npm run scenarios');
  });
});
