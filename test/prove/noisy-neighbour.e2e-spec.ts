import IORedis from 'ioredis';
import { callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { eventually } from '../messaging/messaging-fixtures';
import { createOrg } from '../support/factory';
import { TEST_REDIS_URL } from '../support/databases';
import { queueBytes } from '../support/queue-bytes';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';

/**
 * One organization's worst legal input must not cost the shared queue store (Redis runs `noeviction`: a full
 * Redis fails every tenant). Measured with Redis `MEMORY USAGE` over every key of this app's queue prefix.
 */
describe('noisy neighbour: the queue store', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let redis: IORedis;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    redis = new IORedis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    redis?.disconnect();
  });

  const bytesOf = (needle: string) => queueBytes(redis, t.queuePrefix, needle);

  it('a maximal contact with 5 endpoints costs Redis at most 4 KB per webhook event, and no copy of the document', async () => {
    const org = await createOrg(t);
    for (let i = 0; i < 5; i++) {
      const res = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/n${i}`, events: ['contact.created'] });
      expect(res.status).toBe(201);
    }
    // The largest contact the bounds allow: 16 KB of custom fields, the longest notes and tags.
    const customFields = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field_${i}`, 'v'.repeat(140)]));
    const maximalContact = (i: number) => ({
      title: 'T'.repeat(200),
      phone: `+120255501${10 + i}`,
      notes: 'n'.repeat(5000),
      tags: Array.from({ length: 20 }, (_, k) => `tag-${k}-${'x'.repeat(40)}`),
      customFields,
    });
    // Every delivered attempt is in the delivery log, and then its job leaves the queue store.
    const settled = (events: number) =>
      eventually(async () => {
        const logged = await t.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE success`);
        const jobs = await queueBytes(redis, `${t.queuePrefix}:webhook-deliveries:01`);
        return logged.rows[0].n === events * 5 && jobs === 0;
      });
    // What the event's two queues hold: every key (jobs, finished sets, counters), and apart from them the events
    // streams, BullMQ's log of job state changes: a ring capped at EVENTS_STREAM_MAX_LENGTH entries per queue
    // (~140 B each), a fixed cost whatever the number of events. A first event creates the queues' fixed
    // structures, so it is left out.
    const eventQueues = async () => {
      const all = (await bytesOf(':domain-events:')) + (await bytesOf(':webhook-deliveries:'));
      const streams = (await bytesOf(':domain-events:events')) + (await bytesOf(':webhook-deliveries:events'));
      return { streams, rest: all - streams };
    };
    expect((await org.api.post('/api/v1/contacts', maximalContact(0))).status).toBe(201);
    await settled(1);
    const before = await eventQueues();

    const EVENTS = 10;
    for (let i = 1; i <= EVENTS; i++) {
      expect((await org.api.post('/api/v1/contacts', maximalContact(i))).status).toBe(201);
    }
    await settled(1 + EVENTS);
    // Each receiver got the whole document, read at send time.
    const documentBytes = receiver.received.find((r) => r.path === '/n0')!.rawBody.length;
    expect(documentBytes).toBeGreaterThan(20_000);
    const after = await eventQueues();
    const bytes = Math.round((after.rest - before.rest) / EVENTS);
    const streamBytes = Math.round((after.streams - before.streams) / EVENTS);
    console.log(
      `Redis bytes per contact.created event, 5 endpoints, maximal contact (${documentBytes} B): ${bytes} ` +
        `(+ ${streamBytes} in the capped events streams until they reach their cap)`,
    );
    // What stays per event is the relay job (ids only, kept within the queue's window of completed jobs) and its
    // entry in the finished set. Before: 8,208 B for the six jobs kept a day (each delivery's too), and before
    // that six copies of the document (about 6 x 22 KB).
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(4096);
    expect(bytes).toBeLessThan(documentBytes / 10);
  });

  it('a simulated call with the longest system prompt costs Redis no copy of it per timeline step (jobs carry ids)', async () => {
    const org = await callingOrg(t);
    const prompt = 'p'.repeat(50_000);
    const kase = await org.api.post('/api/v1/cases', { title: 'Longest prompt', prompt });
    expect(kase.status).toBe(201);
    // A number ending in 1 is answered (docs/contracts/simulator.md): the longest timeline, the prompt in every conversation step.
    const created = await org.api.post('/api/v1/calls', {
      to: '+12025550101',
      from: org.from,
      caseId: kase.body.data.id,
    });
    expect(created.status).toBe(201);
    const call = await waitForCall(org, created.body.data.id as string, finished);
    expect(call.status).toBe('ended');
    // The transcript still opens with the whole prompt, rendered from the call when each step ran.
    expect(call.transcript[0]).toMatchObject({ role: 'system', content: prompt });

    const { rows } = await t.db.query('SELECT api_call_id FROM calls WHERE id = $1', [call.id]);
    const providerCallId = rows[0].api_call_id as string;
    const keys = await redis.keys(`${t.queuePrefix}:voice-events:${providerCallId}-*`);
    expect(keys.length).toBeGreaterThanOrEqual(6);
    // Played steps are kept a minute, within the queue's window of completed jobs: what they hold stays that long.
    const bytes = await bytesOf(providerCallId);
    console.log(`Redis bytes for one simulated call (${keys.length} timeline jobs), 50,000-character prompt: ${bytes}`);
    // Before: each conversation step carried the prompt (about 5 x 50 KB); now each job is ids and timings.
    expect(bytes / keys.length).toBeLessThanOrEqual(1536);
  });
});
