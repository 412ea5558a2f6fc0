import { spawnSync } from 'node:child_process';
import { ROOT, ensureBuilt } from '../support/built-service';

/** The production entry point (`node dist/main.js`) with MESSAGING_PROVIDER=whatsapp and a setting missing. */
describe('start-up with MESSAGING_PROVIDER=whatsapp', () => {
  beforeAll(() => {
    ensureBuilt();
  });

  it('is refused with one line naming the missing token, printing no secret, before anything starts', () => {
    const secrets = {
      WHATSAPP_APP_SECRET: 'app-secret-never-printed',
      WHATSAPP_VERIFY_TOKEN: 'verify-token-never-printed-K9Q2',
    };
    const run = spawnSync(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        // Never reached: the settings are checked before any connection is tried.
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        CURSOR_SECRET: 'q7Vd0x2LkP9sT4mWcZ8bN1yR6hJ3fG5a',
        MESSAGING_PROVIDER: 'whatsapp',
        ...secrets,
      },
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Start-up failed: Invalid environment: WHATSAPP_ACCESS_TOKEN is required when MESSAGING_PROVIDER=whatsapp ' +
        '(docs/providers.md walks through getting each)',
    ]);
    for (const value of Object.values(secrets)) expect(run.stderr + run.stdout).not.toContain(value);
  });
});
