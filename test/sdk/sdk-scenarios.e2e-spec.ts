import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VoiceCallingClient, VoiceCallingError } from '../../clients/typescript/src';
import { eventually } from '../messaging/messaging-fixtures';
import { scenarioCase } from '../scenarios/scenario-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * A case's scenarios run through the generated SDK against the running app, as docs/testing-your-assistant.md
 * ("Through the SDK") shows it: written, changed, run together on the simulator (a test key), each run read by
 * its id until it ends, every expectation with what was seen.
 */
describe('TypeScript SDK: running a case’s scenarios', () => {
  let t: TestApp;
  let client: VoiceCallingClient;
  let apiKey: string;
  let caseId: string;
  /** The scenarios the first test writes: one passes, one fails. */
  const written = { books: '', refunds: '' };
  beforeAll(async () => {
    t = await startTestApp();
    const org = await createOrg(t);
    const testKey = await org.keyWith(['*'], { environment: 'test' });
    apiKey = testKey.key;
    caseId = await scenarioCase(t, org.id, testKey.api);
    client = new VoiceCallingClient({ baseUrl: t.baseUrl, apiKey });
  });
  afterAll(() => t?.close());

  it('writes, changes and runs the scenarios; one passes, one fails showing what was seen', async () => {
    const books = await client.createScenario({
      caseId,
      name: 'Books Tuesday',
      variables: { name: 'Ada' },
      turns: ['Can I book for Tuesday?'],
      expect: { replyIncludes: ['Tuesday'], toolCalls: [{ name: 'book' }], handOff: false },
    });
    const refunds = await client.createScenario({
      caseId,
      name: 'Refunds',
      turns: ['Money back'],
      expect: { replyIncludes: ['Tuesday'] },
    });
    Object.assign(written, { books: books.data.id, refunds: refunds.data.id });
    const renamed = await client.updateScenario(refunds.data.id, {
      name: 'Refunds, politely',
      expect: { replyIncludes: ['refund'] },
    });
    expect(renamed.data).toMatchObject({ name: 'Refunds, politely', expect: { replyIncludes: ['refund'] } });

    const started = await client.runCaseScenarios({ caseId });
    expect(started.data.summary).toEqual({ passed: 0, failed: 0, pending: 2 });
    const ended = await Promise.all(
      started.data.runs.map((run) =>
        eventually(async () => {
          const read = await client.getScenarioRun(run.id);
          return !['queued', 'running'].includes(read.data.status) && read.data;
        }, 15_000),
      ),
    );
    const byScenario = new Map(ended.map((run) => [run.scenarioId, run]));
    const passed = byScenario.get(books.data.id)!;
    expect(passed.status).toBe('passed');
    expect(passed.expectations.map((e) => [e.type, e.passed])).toEqual([
      ['replyIncludes', true],
      ['toolCall', true],
      ['handOff', true],
    ]);
    const failed = byScenario.get(refunds.data.id)!;
    expect(failed.status).toBe('failed');
    expect(failed.expectations).toEqual([
      {
        type: 'replyIncludes',
        expected: 'refund',
        passed: false,
        seen: 'Hi , this is Acme Dental.\nThanks there, you said: "Money back"',
      },
    ]);
    expect(failed.transcript.map((line) => line.role)).toEqual(['assistant', 'user', 'assistant']);
  });

  it('the docs’ example runs the case’s scenarios through the SDK: false, one line per expectation', async () => {
    const root = join(__dirname, '..', '..');
    const docs = readFileSync(join(root, 'docs', 'testing-your-assistant.md'), 'utf8');
    const example = /## Through the SDK[\s\S]*?```ts\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';
    expect(example).toContain("from '@voice-calling/sdk'");
    // The example as documented, its package import pointed at the SDK's sources in this repository.
    const dir = mkdtempSync(join(tmpdir(), 'sdk-docs-example-'));
    const file = join(dir, 'run-scenarios.ts');
    const sdk = JSON.stringify(join(root, 'clients', 'typescript', 'src'));
    writeFileSync(file, example.replace("'@voice-calling/sdk'", sdk));
    const printed: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.join(' '));
    });
    try {
      const { runScenarios } = (await import(file)) as {
        runScenarios: (baseUrl: string, apiKey: string, caseId: string) => Promise<boolean>;
      };
      expect(await runScenarios(t.baseUrl, apiKey, caseId)).toBe(false);
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(printed.sort()).toEqual(
      [
        `PASS ${written.books} replyIncludes "Tuesday"`,
        `PASS ${written.books} toolCall {"name":"book"}`,
        `PASS ${written.books} handOff false`,
        `FAIL ${written.refunds} replyIncludes "refund"`,
      ].sort(),
    );
  });

  it('a refused start is a VoiceCallingError with the API’s code', async () => {
    const error = await client.runCaseScenarios({ caseId: 'not-a-uuid' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VoiceCallingError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });
});
