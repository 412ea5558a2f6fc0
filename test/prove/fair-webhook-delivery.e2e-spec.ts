import { createOrg, TestOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';

/** Attempts in flight per endpoint: below the organization's share, so the endpoint's slots are what binds. */
const PER_ENDPOINT = 4;
/** One organization's share of the worker: a fifth of its 50 slots, so A's flood leaves most of them to others. */
const PER_ORGANIZATION = 10;

/**
 * One organization's slow receivers never delay another's webhooks. Org A's five endpoints
 * answer 200 after 9.5 s (inside the 10 s timeout) or never; they live on the same host and port as org B's
 * endpoint, so the worker's delivery slots and the sockets to that host are what both compete for.
 */
describe('noisy neighbour: fair webhook delivery', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      env: {
        WEBHOOK_ALLOW_INSECURE: 'true',
        WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
        WEBHOOK_ORGANIZATION_CONCURRENCY: String(PER_ORGANIZATION),
      },
    });
  });
  afterAll(async () => {
    // The receiver goes first: A's held requests end at once instead of holding the workers' shutdown.
    await receiver?.stop();
    await t?.close();
  });

  async function subscribe(org: TestOrg, path: string): Promise<string> {
    const res = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['contact.created'] });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }

  it("org B's attempts start before any of org A's hanging attempts ends, while A floods the same host", async () => {
    const a = await createOrg(t, { name: 'A' });
    const b = await createOrg(t, { name: 'B' });
    const aPaths = ['/a0', '/a1', '/a2', '/a3', '/a4'];
    for (const [i, path] of aPaths.entries()) {
      receiver.answerAlways(path, i < 3 ? { status: 200, afterMs: 9500 } : 'hold');
      await subscribe(a, path);
    }
    await subscribe(b, '/b0');

    // A's flood: 60 contacts, 300 deliveries of 9.5 s or more each (before: 50 shared slots, 32 shared sockets).
    for (let batch = 0; batch < 6; batch++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          a.api.post('/api/v1/contacts', { title: `A ${batch}-${i}`, phone: `+1202555${1000 + batch * 10 + i}` }),
        ),
      );
      expect(created.map((r) => r.status)).toEqual(new Array(10).fill(201));
    }
    await receiver.waitFor((all) => aPaths.every((p) => all.some((r) => r.path === p)), 15000, "A's first attempts");

    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = Date.now();
      const contact = await b.api.post('/api/v1/contacts', { title: `B ${i}`, phone: `+1202555200${i}` });
      expect(contact.status).toBe(201);
      const id = contact.body.data.id as string;
      const arrived = (): number | undefined =>
        receiver.on('/b0').find((r) => JSON.parse(r.rawBody).data.id === id)?.at;
      await receiver.waitFor(() => arrived() !== undefined, 60_000, "B's delivery");
      latencies.push(arrived()! - sent);
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(`org B event-to-first-attempt while A floods: ${latencies.join(', ')} ms`);
    // Causality, not a stopwatch: with shared slots B's attempt can only start once one of A's ends (9.5 s or
    // the 10 s timeout after it began). Fair delivery starts all three of B's while A's first wave is still open.
    const bArrivals = receiver.on('/b0').map((r) => r.at);
    const aFirstEnd = Math.min(...receiver.ended.filter((e) => aPaths.includes(e.path)).map((e) => e.at), Infinity);
    expect(bArrivals).toHaveLength(3);
    expect(Math.max(...bArrivals)).toBeLessThan(aFirstEnd);

    // However many of A's deliveries wait, no endpoint ever had more than its share open at once.
    for (const path of aPaths) expect(receiver.maxOpen.get(path) ?? 0).toBeLessThanOrEqual(PER_ENDPOINT);
  }, 120_000);

  it('a burst to one endpoint runs at most 4 attempts at a time, and every deferred attempt is delivered once', async () => {
    const org = await createOrg(t, { name: 'Burst' });
    receiver.answerAlways('/burst', { status: 200, afterMs: 300 });
    const endpointId = await subscribe(org, '/burst');
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        org.api.post('/api/v1/contacts', { title: `Burst ${i}`, phone: `+1202555${3000 + i}` }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(new Array(20).fill(201));
    await receiver.waitFor((all) => all.filter((r) => r.path === '/burst').length >= 20, 60_000, 'the burst');
    const ids = receiver.on('/burst').map((r) => JSON.parse(r.rawBody).data.id as string);
    expect(new Set(ids).size).toBe(20);
    expect(receiver.maxOpen.get('/burst')).toBeLessThanOrEqual(PER_ENDPOINT);
    // Every slot was given back and nobody is left waiting (the last release lands just after its request).
    const leases = async (): Promise<number> =>
      (await t.db.query(`SELECT count(*)::int AS n FROM webhook_delivery_leases WHERE endpoint_id = $1`, [endpointId]))
        .rows[0].n;
    for (let i = 0; i < 50 && (await leases()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await leases()).toBe(0);
  });
});
