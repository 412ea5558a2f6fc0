import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from '../../support/built-service';
import { TEST_REDIS_URL } from '../../support/databases';
import { ADMIN_TOKEN, TestApp } from '../../support/test-app';

/**
 * A worker-role instance of `t` in its own OS process, so a test can SIGKILL it: nothing graceful runs, as when a
 * machine dies. It is the built service (`node dist/main.js`, built first when older than the sources), which
 * reports 'ready' over the IPC channel once its roles run: loading the app from its TypeScript sources cost each
 * child about 4 s more CPU and 370 MB more memory. Resolves once the app has booted. With `onOutput`, its stdout and
 * stderr (the JSON log) go there instead of the test's console. A child not ready within `readyWithinMs` is killed
 * and the promise rejects: a hook that timed out waiting for it never held it to stop it, and it would run on beside
 * the next files of the Jest worker.
 */
export function forkWorker(
  t: TestApp,
  env: Record<string, string>,
  { onOutput, readyWithinMs = 100_000 }: { onOutput?: (text: string) => void; readyWithinMs?: number } = {},
): Promise<ChildProcess> {
  ensureBuilt();
  const child = fork(join(ROOT, 'dist', 'main.js'), [], {
    cwd: ROOT,
    // Not the Jest worker's flags (its heap size, VM modules): the service as it runs anywhere.
    execArgv: [],
    env: {
      ...process.env,
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
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker process not ready within ${readyWithinMs} ms`));
    }, readyWithinMs);
    child.once('message', () => {
      clearTimeout(deadline);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`worker process exited early (${code})`));
    });
  });
}

export async function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
