import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ROOT, ensureBuilt } from '../support/built-service';

/**
 * A production process refuses an unsafe configuration before it touches anything, with one clear line naming
 * the variable (never its value): insecure webhook targets, and operator secrets of fewer than 16 different
 * characters (docs/operations.md, "Configuration").
 */
describe('production start-up refuses unsafe settings', () => {
  beforeAll(() => {
    ensureBuilt();
  }, 180_000);

  const strong = () => randomBytes(32).toString('base64url');
  function start(env: Record<string, string>): { status: number | null; lines: string[] } {
    const run = spawnSync(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        // Never reached: the configuration is refused first.
        DATABASE_URL: 'postgres://app@127.0.0.1:1/never',
        CURSOR_SECRET: strong(),
        ADMIN_TOKEN: strong(),
        SECRETS_KEY: randomBytes(32).toString('base64'),
        ...env,
      },
    });
    return { status: run.status, lines: `${run.stdout}${run.stderr}`.split('\n').filter(Boolean) };
  }

  it.each([
    [{ WEBHOOK_ALLOW_INSECURE: 'true' }, 'WEBHOOK_ALLOW_INSECURE=true is refused when NODE_ENV=production'],
    [{ ADMIN_TOKEN: 'ab'.repeat(20) }, 'ADMIN_TOKEN must hold at least 16 different characters'],
    [{ CURSOR_SECRET: '0123456789abcde'.repeat(3) }, 'CURSOR_SECRET must hold at least 16 different characters'],
    [{ VAPI_WEBHOOK_SECRET: 'vapi-vapi-vapi-vapi' }, 'VAPI_WEBHOOK_SECRET must hold at least 16 different characters'],
    [{ WEBHOOK_PRIVATE_NETWORKS: '10.0.0.0/8,office' }, 'WEBHOOK_PRIVATE_NETWORKS: "office" is not a CIDR range'],
    [{ SECRETS_KEY: '' }, 'SECRETS_KEY is required when NODE_ENV=production'],
    [{ VAPI_REPORT_GRACE_MS: '15000' }, 'VAPI_REPORT_GRACE_MS must be at least 31000'],
  ])('%j: exits 1 with one line', (env, message) => {
    const { status, lines } = start(env);
    expect(status).toBe(1);
    expect(lines).toEqual([expect.stringContaining(message)]);
    expect(lines[0]).toMatch(/^Start-up failed: Invalid environment: /);
    for (const value of Object.values(env)) if (value.length > 8) expect(lines[0]).not.toContain(value);
  });
});
