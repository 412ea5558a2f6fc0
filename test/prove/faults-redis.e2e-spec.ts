import { webhookId } from '../../src/modules/webhooks/delivery/webhook-delivery.job';
import { callingOrg } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { PrivateRedis } from './support/private-redis';

const EVENTS = ['contact.created', 'call.scheduled', 'call.started', 'call.ended', 'call.failed'];
// The calls are scheduled to run after Redis is back: their dispatch jobs, and the sweeper's own schedule, die with it.
const CALLS = 4;
const CONTACTS = 4;

/**
 * Redis restarted empty (killed without persistence) while calls are scheduled and webhook deliveries are
 * pending: PostgreSQL is the source of truth, so after Redis returns every scheduled call still runs and every
 * event recorded since reaches the receiver (see the known gap below). The app runs on a private redis-server; the shared one is untouched.
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
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await redis?.kill();
  });

  it('runs every scheduled call and delivers the events recorded once Redis is back', async () => {
    const org = await callingOrg(t);
    const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/hooks`, events: EVENTS });
    expect(hook.status).toBe(201);
    const endpointId: string = hook.body.data.id;
    // The receiver fails every first attempt, so each event's retry is waiting in Redis when it dies.
    receiver.script('/hooks', Array(CALLS + CONTACTS).fill(500));

    const scheduledAt = new Date(Date.now() + 6000).toISOString();
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
    await new Promise((r) => setTimeout(r, 1500));
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

    // Every event recorded after Redis returned (the calls' call.started and call.ended) reaches the receiver.
    // KNOWN GAP (reported): a delivery whose next attempt was a delayed job in the lost Redis is not retried
    // (its event is already marked relayed and nothing re-creates the job); here the call.scheduled and
    // contact.created events, each of which got one failed attempt before the loss.
    const { rows: events } = await t.db.query(
      'SELECT event_id, type FROM outbox_events WHERE organization_id = $1 AND type = ANY($2) AND occurred_at >= $3',
      [org.id, EVENTS, new Date(restartedAt)],
    );
    expect(events.map((e) => e.type).sort()).toEqual([
      ...calls.map(() => 'call.ended'),
      ...calls.map(() => 'call.started'),
    ]);
    const delivered = () => new Set(receiver.on('/hooks').map((r) => r.headers['x-webhook-id'] as string));
    const expected = events.map((e) => webhookId(e.event_id, endpointId));
    await receiver.waitFor(() => expected.every((id) => delivered().has(id)), 30_000, 'events after the restart');
    const { rows: logged } = await t.db.query(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND success AND event_id = ANY($2)',
      [endpointId, events.map((e) => e.event_id)],
    );
    expect(logged[0].n).toBe(events.length);
  }, 150_000);
});
