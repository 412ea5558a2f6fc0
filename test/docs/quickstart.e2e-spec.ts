import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DemoRun, demoPorts, freshCheckout, runDemo, waitForOutput } from '../demo/support/demo-process';
import { freePort } from '../support/free-port';

const QUICKSTART = join(__dirname, '..', '..', 'docs', 'quickstart.md');
const STARTUP_MS = 180_000;
const SCRIPT_MS = 120_000;

/** The fenced `sh` blocks of the quickstart, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

function runScript(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), SCRIPT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, out });
    });
  });
}

/**
 * docs/quickstart.md, executed: its first block (`npm run demo`) is started in a fresh directory, then every
 * other block runs, in order, in one bash with `set -euo pipefail`, as a reader pasting them would.
 */
describe('docs/quickstart.md', () => {
  let dir: string;
  let demo: DemoRun | undefined;
  afterAll(async () => {
    if (demo && demo.child.exitCode === null) {
      demo.child.kill('SIGINT');
      await demo.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'every command works as written: a case call, its verified webhook, its minutes, a chat',
    async () => {
      const blocks = shellBlocks(readFileSync(QUICKSTART, 'utf8'));
      expect(blocks.length).toBeGreaterThan(5);
      expect(blocks[0].trim()).toBe('npm run demo');

      dir = freshCheckout();
      const env = { ...(await demoPorts()), SIMULATOR_CALL_MS: '1500' };
      demo = runDemo(dir, env);
      await waitForOutput(demo, 'Stop with Ctrl-C', STARTUP_MS);

      const { code, out } = await runScript(blocks.slice(1).join('\n'), dir, {
        PORT: env.PORT,
        DEMO_RECEIVER_PORT: env.DEMO_RECEIVER_PORT,
        OWN_PORT: String(await freePort()),
      });
      expect({ code, out }).toEqual({ code: 0, out: expect.any(String) });
      expect(out).toContain('Hi Ada, this is a reminder of your appointment on Friday 10:00.');
      // The demo's own receiver got the call's webhooks, signed; the reader's own receiver verified the ping.
      const endpoint =
        /received call\.ended for endpoint ([0-9a-f-]{36}) on \/hooks \(X-Webhook-Id [0-9a-f-]{36}, signature valid\)/;
      expect(demo.stdout()).toMatch(endpoint);
      // The script's polling (GET until the call ends, until the delivery and the reply are there) is not printed.
      expect(demo.stdout()).not.toMatch(/"method":"GET","route":"\/api\/v1\//);
      expect(demo.stdout()).toMatch(/"method":"POST","route":"\/api\/v1\/calls"/);
      // One line per delivery: the call's end arrived once, through the one endpoint subscribed.
      expect(
        demo
          .stdout()
          .split('\n')
          .filter((l) => /received call\.ended/.test(l)),
      ).toHaveLength(1);
      expect(out).toMatch(/verified webhook\.test for webhookEndpointId [0-9a-f-]{36} \(X-Webhook-Id [0-9a-f-]{36}\)/);
      expect(out).toContain('"event":"webhook.test","status":"delivered"');
      expect(out).toContain('"type":"outbound_call"');
      expect(out).not.toContain('rejected: bad signature');
      // The chat: the user's message, the agent's reply, the hand-off and the person's reply.
      expect(out).toContain('Can I move my appointment?');
      expect(out).toContain('Thanks Grace, you said: \\"Can I move my appointment?\\"');
      expect(out).toContain('"status":"handed_off"');
      expect(out).toContain('"type":"text"');
    },
    STARTUP_MS + SCRIPT_MS,
  );
});
