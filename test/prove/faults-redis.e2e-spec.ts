import { webhookId } from '../../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { callingOrg } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { PrivateRedis } from './support/private-redis';

const EVENTS = ['contact.created', 'call.scheduled', 'call.started', 'call.ended', 'call.failed'];
// The calls are scheduled to run after Redis is back: their dispatch jobs, and the sweeper's own schedule, die with it.
const CALLS = 4;
const CONTACTS = 4;

/**
 * Redis restarted empty (killed without persistence) while calls are scheduled and webhook deliveries are
 * pending: PostgreSQL is the source of truth, so after Redis returns every scheduled call still runs and every
 * event is delivered: those recorded since, and those whose retry was waiting in the lost Redis (the redelivery
 * sweep re-creates them from the delivery log). The app runs on a private redis-server; the shared one is untouched.
 */
describe('faults: Redis restarted empty while calls are scheduled and webhooks pending', () => {
  let t: TestApp;
  let redis: PrivateRedis;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    redis = await new PrivateRedis().start();
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      env: {
        REDIS_URL: redis.url,
        WEBHOOK_ALLOW_INSECURE: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '3000,3000,3000,3000,3000',
        WEBHOOK_REDELIVERY_GRACE_MS: '1000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await redis?.kill();
  });

  it('runs every scheduled call and delivers every event, pending retries included, once Redis is back', async () => {
    const org = await callingOrg(t);
    const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/hooks`, events: EVENTS });
    expect(hook.status).toBe(201);
    const endpointId: string = hook.body.data.id;
    // The receiver fails every first attempt, so each event's retry is waiting in Redis when it dies.
    receiver.script('/hooks', Array(CALLS + CONTACTS).fill(500));

    // Far enough out that every call is still waiting when Redis dies, even on a machine slow to create them.
    const scheduledAt = new Date(Date.now() + 15_000).toISOString();
    const calls: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      const res = await org.api.post('/api/v1/calls', {
        to: `+14155559${String(i).padStart(2, '0')}0`,
        from: org.from,
        scheduledAt,
      });
      expect(res.status).toBe(201);
      calls.push(res.body.data.id);
    }
    for (let i = 0; i < CONTACTS; i++) {
      const res = await org.api.post('/api/v1/contacts', {
        title: `Pending ${i}`,
        phone: `+14155559${String(i).padStart(2, '0')}1`,
      });
      expect(res.status).toBe(201);
    }
    await receiver.waitFor((all) => all.length >= CALLS + CONTACTS, 20_000, 'first attempts');
    receiver.script('/hooks', []);

    await redis.kill();
    // Back only once the app has seen it gone: its readiness names Redis as the dependency down.
    await waitUntil('the app to report Redis down', async () => {
      const ready = await t.anonymous.get('/health/ready');
      return ready.status === 503 && ready.body?.error?.redis !== undefined;
    });
    const restartedAt = Date.now();
    await redis.start();

    // Every scheduled call still fires (its dispatch job died with Redis).
    const deadline = Date.now() + 60_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      const { rows } = await t.db.query('SELECT status FROM calls WHERE id = ANY($1)', [calls]);
      statuses = rows.map((r) => r.status);
      if (statuses.every((s) => s === 'ended')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(statuses).toEqual(calls.map(() => 'ended'));

    // Every event is delivered: those recorded after Redis returned (call.started, call.ended) and those whose
    // retry was a delayed job in the lost Redis (call.scheduled, contact.created), which the sweep re-creates.
    const { rows: events } = await t.db.query(
      'SELECT event_id, type, occurred_at FROM outbox_events WHERE organization_id = $1 AND type = ANY($2)',
      [org.id, EVENTS],
    );
    expect(events.filter((e) => e.occurred_at < new Date(restartedAt)).length).toBe(CALLS + CONTACTS);
    const succeeded = async () =>
      (
        await t.db.query(
          `SELECT count(DISTINCT event_id)::int AS n FROM webhook_deliveries
            WHERE endpoint_id = $1 AND success AND event_id = ANY($2)`,
          [endpointId, events.map((e) => e.event_id)],
        )
      ).rows[0].n as number;
    const until = Date.now() + 60_000;
    while ((await succeeded()) < events.length && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    expect(await succeeded()).toBe(events.length);
    // Each event reached the receiver under its one stable id, successfully at least once.
    const ok = new Set(receiver.on('/hooks').map((r) => r.headers['x-webhook-id'] as string));
    expect(events.map((e) => webhookId(e.event_id, endpointId)).filter((id) => !ok.has(id))).toEqual([]);
  }, 150_000);
});
