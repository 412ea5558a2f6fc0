import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { TEST_REDIS_URL } from '../../support/databases';
import { ADMIN_TOKEN, TestApp } from '../../support/test-app';

/**
 * A worker-role instance of `t` in its own OS process (test/webhooks/support/worker-process.ts), so a test can
 * SIGKILL it: nothing graceful runs, as when a machine dies. Resolves once the app has booted. With `onOutput`,
 * its stdout and stderr (the JSON log) go there instead of the test's console.
 */
export function forkWorker(
  t: TestApp,
  env: Record<string, string>,
  onOutput?: (text: string) => void,
): Promise<ChildProcess> {
  const root = join(__dirname, '..', '..', '..');
  const child = fork(join(root, 'test', 'webhooks', 'support', 'worker-process.ts'), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    env: {
      ...process.env,
      TS_NODE_PROJECT: join(root, 'tsconfig.spec.json'),
      NODE_ENV: 'test',
      DATABASE_URL: t.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: t.queuePrefix,
      ADMIN_TOKEN,
      ROLES: 'worker',
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', onOutput ? 'pipe' : 'inherit', onOutput ? 'pipe' : 'inherit', 'ipc'],
  });
  if (onOutput) {
    child.stdout?.on('data', (chunk: Buffer) => onOutput(chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => onOutput(chunk.toString('utf8')));
  }
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
  });
}

export async function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
