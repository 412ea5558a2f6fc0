import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DemoRun, demoPorts, freshCheckout, runDemo, waitForOutput } from './support/demo-process';
import { freePort } from '../support/free-port';

const STARTUP_MS = 180_000;
const keyIn = (run: DemoRun) => /API key:\s+(\S+)/.exec(run.stdout())?.[1];
const adminTokenIn = (run: DemoRun) => /Admin token:\s+(\S+)/.exec(run.stdout())?.[1];
const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

function postgresAlive(dir: string): boolean {
  const pidFile = join(dir, '.data', 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm run demo` in a fresh directory, as a newcomer runs it: the banner comes first, a second demo on the same
 * data says what is running, a SIGINT to the npm process stops the app and then the embedded PostgreSQL with a
 * short goodbye and exit 0, and a restart reuses the key.
 */
describe('demo: the first hour', () => {
  let dir: string;
  let env: Record<string, string>;
  let first: DemoRun | undefined;
  beforeAll(async () => {
    dir = freshCheckout();
    env = await demoPorts();
  });
  afterAll(async () => {
    for (const run of [first]) if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'starts with the banner first, refuses a second demo naming the port, and stops cleanly on SIGINT',
    async () => {
      first = runDemo(dir, env);
      await waitForOutput(first, 'Stop with Ctrl-C', STARTUP_MS);
      const beforeBanner = first.stdout().split('Voice Calling API demo is running.')[0];
      expect(lines(beforeBanner).length).toBeLessThan(12);
      expect(first.stdout()).toContain(`"url": "http://127.0.0.1:${env.DEMO_RECEIVER_PORT}/hooks"`);

      const second = runDemo(dir, { ...env, PORT: String(await freePort()) });
      expect((await second.exited).code).toBe(1);
      expect(second.stderr()).toContain(
        `A demo is already running on this checkout's data: http://localhost:${env.PORT}`,
      );
      expect(postgresAlive(dir)).toBe(true);

      first.child.kill('SIGINT');
      const { code } = await first.exited;
      expect(code).toBe(0);
      expect(lines(first.stderr()).length).toBeLessThan(10);
      const afterSignal = first.stdout().split('SIGINT received')[1] ?? '';
      expect(lines(afterSignal).length).toBeLessThanOrEqual(3);
      expect(postgresAlive(dir)).toBe(false);
    },
    STARTUP_MS + 60_000,
  );

  it(
    'a restart reuses the stored key and its own admin token, and SIGTERM stops it the same way',
    async () => {
      const key = keyIn(first!);
      expect(key).toMatch(/^vc_live_/);
      // The admin token is this checkout's own (no published default), kept owner-only under .data/.
      const adminToken = adminTokenIn(first!);
      expect(adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const tokenFile = join(dir, '.data', 'demo-admin-token');
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe(adminToken);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const again = runDemo(dir, env);
      await waitForOutput(again, 'Stop with Ctrl-C', STARTUP_MS);
      expect(keyIn(again)).toBe(key);
      expect(adminTokenIn(again)).toBe(adminToken);
      const admin = await fetch(`http://127.0.0.1:${env.PORT}/admin/v1/organizations`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(admin.status).toBe(200);
      const res = await fetch(`http://127.0.0.1:${env.PORT}/api/v1/organization`, { headers: { 'x-api-key': key! } });
      expect(res.status).toBe(200);
      again.child.kill('SIGTERM');
      const { code } = await again.exited;
      expect(code).toBe(0);
      expect(postgresAlive(dir)).toBe(false);
    },
    STARTUP_MS + 60_000,
  );
});
