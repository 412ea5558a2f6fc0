/**
 * Hostile bodies against the event loop: `/health/live` latency while 8 clients keep sending
 * ~1 MiB JSON bodies of 340,000 members to `POST /api/v1/contacts`, beside the same probe on the idle server, in
 * one run. Target: p99 < 100 ms while the bodies are refused (each is 400 VALIDATION_ERROR at its 2,001st member,
 * decided on the raw bytes before any object is built). Run: `npm run bench hostile`.
 *
 * Boots the real app (api + worker + scheduler in one process, Redis queues) on a fresh database. Probes are
 * sequential (one in flight), on their own keep-alive connection; the attackers run in a child process (this
 * file again, like any remote client), so writing their bodies never holds the server's event loop.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createOrg } from '../test/support/factory';
import globalSetup from '../test/support/global-setup';
import { startTestApp } from '../test/support/test-app';

const PROBE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Between probes, so the probing itself is no load. */
const PROBE_GAP_MS = 10;
const ATTACKERS = 8;
const MEMBERS = 340_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** One request; resolves with its status and the milliseconds until the whole answer arrived. */
function send(
  url: URL,
  agent: Agent | false,
  method: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started });
        // A body refused before it was all read: stop writing the rest (its own connection, never reused).
        if (!agent) req.destroy();
      });
    });
    // A refused body may be answered before all of it is written; the server then closes the socket.
    req.on('error', (err) => reject(err));
    req.end(body);
  });
}

/** Sequential probes of `/health/live` for PROBE_SECONDS, sorted latencies in milliseconds. */
async function probeLatencies(base: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL('/health/live', base);
  const latencies: number[] = [];
  const until = performance.now() + PROBE_SECONDS * 1000;
  while (performance.now() < until) {
    const { status, ms } = await send(url, agent, 'GET', {});
    if (status !== 200) throw new Error(`/health/live answered ${status}`);
    latencies.push(ms);
    await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
  }
  agent.destroy();
  return latencies.sort((a, b) => a - b);
}

const summary = (sorted: number[]) => ({
  probes: sorted.length,
  p50: Number(percentile(sorted, 50).toFixed(1)),
  p99: Number(percentile(sorted, 99).toFixed(1)),
  max: Number(sorted[sorted.length - 1].toFixed(1)),
});

/**
 * 340,000 members of 3 bytes: just under the 1 MiB body limit (over it would be a 413 before any parsing), then
 * bytes that are not JSON, so only the member count can be what refuses it.
 */
const hostileBody = () => Buffer.from(`{"a":[${Array(MEMBERS).fill('10').join(',')}]} this is not JSON`);

/** The child process: ATTACKERS clients, each sending the body again as soon as it is answered, until told to stop. */
async function attackUntilStopped(url: URL, key: string): Promise<Record<string, number>> {
  const body = hostileBody();
  const outcomes: Record<string, number> = {};
  let attacking = true;
  let announced = false;
  process.once('message', () => (attacking = false));
  const attacker = async () => {
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    while (attacking) {
      // A connection per body: the answer may come before the whole body was written.
      const outcome = await send(url, false, 'POST', headers, body).then(
        ({ status }) => String(status),
        (err: NodeJS.ErrnoException) => err.code ?? 'error',
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      if (!announced) process.send!('attacking');
      announced = true;
    }
  };
  await Promise.all(Array.from({ length: ATTACKERS }, attacker));
  return outcomes;
}

async function main(): Promise<void> {
  await globalSetup();
  const t = await startTestApp();
  try {
    const org = await createOrg(t);
    const body = hostileBody();
    if (body.length >= 1024 * 1024) throw new Error('the body must stay under 1 MiB');

    const idle = await probeLatencies(t.baseUrl);

    const attack = fork(__filename, [new URL('/api/v1/contacts', t.baseUrl).href, org.key], {
      env: { ...process.env, BENCH_ATTACKER: '1' },
    });
    const messages: Array<(m: unknown) => void> = [];
    attack.on('message', (m) => messages.shift()?.(m));
    const next = <T>() => new Promise<T>((resolve) => messages.push(resolve as (m: unknown) => void));
    // Probing starts once the attack runs: the first body has been refused and the others are in flight.
    await next<'attacking'>();
    const outcomes = next<Record<string, number>>();
    const started = performance.now();
    const underAttack = await probeLatencies(t.baseUrl);
    const seconds = (performance.now() - started) / 1000;
    attack.send('stop');
    const answers = await outcomes;
    const refused = answers['400'] ?? 0;

    console.log(
      JSON.stringify(
        {
          healthLiveMs: { idle: summary(idle), while1MiBBodiesRefused: summary(underAttack) },
          attack: {
            concurrentClients: ATTACKERS,
            bodyBytes: body.length,
            members: MEMBERS,
            answers,
            refusedPerSecond: Math.round(refused / seconds),
          },
          loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
          target: { p99WhileRefusingMs: '< 100' },
        },
        null,
        2,
      ),
    );
  } finally {
    await t.close();
  }
}

if (!process.env.BENCH_ATTACKER) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  const [url, key] = process.argv.slice(2);
  void attackUntilStopped(new URL(url), key).then((outcomes) => process.send!(outcomes, () => process.exit(0)));
}
