import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { DemoRun, demoPorts, freshCheckout, runDemo, waitForOutput } from './support/demo-process';

const STARTUP_MS = 180_000;
const BANNER = 'Voice Calling API demo is running.';
const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
const keyIn = (run: DemoRun) => /API key:\s+(\S+)/.exec(run.stdout())![1];
const adminTokenIn = (run: DemoRun) => /Admin token:\s+(\S+)/.exec(run.stdout())![1];

/**
 * Console use, counted at the rate the console polls while its pages are open (docs/console.md): the calls list
 * every 2 s and the campaigns every 3 s for 10 minutes, plus 20 page loads with their static files.
 */
const TEN_MINUTES = { callLists: 300, campaignLists: 200, pageLoads: 20 };
/**
 * What the terminal may show after the banner for those 10 minutes plus one webhook endpoint and one call made
 * with the banner's curls: the console sign-in (a write, 1 line), the two API writes (1 line each) and the webhooks
 * the built-in receiver gets (call.started, call.ended). Measured: 5 lines; the bound leaves room for a retried
 * delivery or two. Before, the same use printed about 40 lines a minute.
 */
const LINES_BOUND = 8;

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

describe('demo: a quiet terminal', () => {
  let dir: string;
  let run: DemoRun | undefined;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = freshCheckout();
    // The simulated call the test makes rings and talks briefly (not the 2 s and 20 s of the defaults): what is
    // judged is what the terminal prints about it, not how long it lasts.
    env = { ...(await demoPorts()), SIMULATOR_RING_MS: '50', SIMULATOR_CALL_MS: '300' };
  });
  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGINT');
      await run.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a taken port before starting anything', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(Number(env.PORT), '127.0.0.1', r));
    try {
      const clash = runDemo(dir, env);
      expect((await clash.exited).code).toBe(1);
      expect(clash.stderr()).toContain(`port ${env.PORT} is already in use on 127.0.0.1. Set PORT to a free port`);
      // Nothing was started: no embedded database was created, Nest never logged.
      expect(existsSync(join(dir, '.data', 'postgres'))).toBe(false);
      expect(clash.stdout()).not.toContain('Nest');
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it(
    'prints the webhook step before the call step, listens on 127.0.0.1, and stays quiet under console use',
    async () => {
      run = runDemo(dir, env);
      await waitForOutput(run, 'Stop with Ctrl-C', STARTUP_MS);
      const banner = run.stdout().split(BANNER)[1];
      expect(banner.indexOf('/api/v1/webhooks')).toBeGreaterThan(0);
      expect(banner.indexOf('/api/v1/webhooks')).toBeLessThan(banner.indexOf('/api/v1/calls'));
      const base = `http://127.0.0.1:${env.PORT}`;
      const external = externalAddress();
      if (external) {
        // Bound to the loopback interface only: the same port on the machine's other address refuses.
        await expect(fetch(`http://${external}:${env.PORT}/health/live`)).rejects.toThrow();
      }

      const afterBanner = () => lines(run!.stdout().split('Stop with Ctrl-C.')[1] ?? '');
      const signIn = await fetch(`${base}/admin/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: adminTokenIn(run) }),
      });
      expect(signIn.status).toBe(201);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const orgs = await (await fetch(`${base}/admin/v1/organizations`, { headers: { cookie } })).json();
      const org = `${base}/admin/v1/organizations/${orgs.data[0].id}`;
      const index = await (await fetch(`${base}/console/`)).text();
      const assets = [...index.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThan(0);
      for (let i = 0; i < TEN_MINUTES.pageLoads; i++) {
        for (const path of ['/console/', ...assets]) expect((await fetch(`${base}${path}`)).status).toBe(200);
      }
      for (let i = 0; i < TEN_MINUTES.callLists; i++) {
        expect((await fetch(`${org}/calls?limit=25&livemode=true`, { headers: { cookie } })).status).toBe(200);
      }
      for (let i = 0; i < TEN_MINUTES.campaignLists; i++) {
        expect((await fetch(`${org}/campaigns?limit=25&livemode=true`, { headers: { cookie } })).status).toBe(200);
      }
      const consoleUse = afterBanner().length;

      // Then what the banner tells a person to do: a webhook endpoint on the built-in receiver, then a call.
      const api = { 'x-api-key': keyIn(run), 'content-type': 'application/json' };
      const hook = await fetch(`${base}/api/v1/webhooks`, {
        method: 'POST',
        headers: api,
        body: JSON.stringify({
          url: `http://127.0.0.1:${env.DEMO_RECEIVER_PORT}/hooks`,
          events: ['call.started', 'call.ended', 'call.failed'],
        }),
      });
      expect(hook.status).toBe(201);
      const from = /Phone number:\s+(\S+)/.exec(run.stdout())![1];
      const call = await fetch(`${base}/api/v1/calls`, {
        method: 'POST',
        headers: api,
        body: JSON.stringify({ to: '+14155550123', from }),
      });
      expect(call.status).toBe(201);
      await waitForOutput(run, `received call.ended for endpoint ${(await hook.json()).data.id} on /hooks`, 120_000);
      const after = afterBanner();
      console.log(
        `demo terminal after the banner: ${consoleUse} lines of console use, ${after.length} in all:\n${after.join('\n')}`,
      );
      // Only the sign-in (a write): no static file, no polling read.
      expect(consoleUse).toBeLessThanOrEqual(1);
      expect(after.length).toBeLessThanOrEqual(LINES_BOUND);
      expect(after.some((l) => l.includes('/console/assets'))).toBe(false);
      expect(after.some((l) => l.includes('received call.ended'))).toBe(true);
    },
    STARTUP_MS + 180_000,
  );
});
