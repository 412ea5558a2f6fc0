import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The production entry point (`node dist/main.js`) with MESSAGING_PROVIDER=whatsapp and a setting missing. */
describe('start-up with MESSAGING_PROVIDER=whatsapp', () => {
  beforeAll(() => {
    // Only when dist/ is older than the sources: a rebuild empties dist/, which other test files read meanwhile.
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
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
