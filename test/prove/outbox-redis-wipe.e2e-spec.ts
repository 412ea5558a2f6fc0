import IORedis from 'ioredis';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import {
  deliveryJobId,
  eventDeliveryJobId,
  webhookId,
} from '../../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { OutboxRelayService } from '../../src/modules/outbox/outbox-relay.service';
import { OutboxReplayJob } from '../../src/modules/outbox/outbox-replay.job';
import { TEST_REDIS_URL } from '../support/databases';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { wipeQueues } from './support/wipe-queues';

const CONTACTS = 20;
const PATHS = ['/a', '/b'];

/**
 * A Redis wipe loses nothing. Events are relayed to the domain-events queue while no worker runs, then
 * every queue key of the app is deleted before any fan-out: the relayed events exist only in PostgreSQL. A worker
 * and scheduler start; the outbox replay re-enqueues the relayed-but-unprocessed events, and every event reaches
 * every endpoint exactly once. The webhook redelivery sweeper is held back (a 10-minute grace) so the deliveries
 * can only come from the replayed fan-out, and every listener, not only the webhook one, has run (`processed_at`).
 */
describe('prove: relayed events survive their queue keys wiped before fan-out', () => {
  let t: TestApp;
  let redis: IORedis;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    redis = new IORedis(TEST_REDIS_URL);
    // API role only: nothing relays or processes in this process until the test says so.
    t = await startTestApp({
      env: {
        ROLES: 'api',
        WEBHOOK_ALLOW_INSECURE: 'true',
        OUTBOX_REPLAY_GRACE_MS: '1000',
        WEBHOOK_REDELIVERY_GRACE_MS: '600000',
      },
    });
  });
  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
    await receiver?.stop();
  });

  it('replays every relayed event whose job was wiped, delivering it once per endpoint', async () => {
    const org = await createOrg(t);
    const endpointIds: string[] = [];
    for (const path of PATHS) {
      const hook = await org.api.post('/api/v1/webhooks', {
        url: `${receiver.url}${path}`,
        events: ['contact.created'],
      });
      expect(hook.status).toBe(201);
      endpointIds.push(hook.body.data.id);
    }
    for (let i = 0; i < CONTACTS; i++) {
      const created = await org.api.post('/api/v1/contacts', { title: `Wiped ${i}`, phone: `+1415572${1000 + i}` });
      expect(created.status).toBe(201);
    }
    const { rows: events } = await t.db.query(
      `SELECT event_id FROM outbox_events WHERE organization_id = $1 AND type = 'contact.created'`,
      [org.id],
    );
    expect(events).toHaveLength(CONTACTS);

    // Relayed: every event is a job in Redis and marked relayed in PostgreSQL, none processed.
    expect(await t.app.get(OutboxRelayService).relayBatch()).toBeGreaterThanOrEqual(CONTACTS);
    const queue = t.app.get(JobQueue).queue(QueueName.DomainEvents);
    expect(await queue.getJob(events[0].event_id)).toBeDefined();
    const { rows: relayed } = await t.db.query(
      `SELECT count(*) FILTER (WHERE relayed_at IS NOT NULL)::int AS relayed,
              count(*) FILTER (WHERE processed_at IS NOT NULL)::int AS processed
         FROM outbox_events WHERE organization_id = $1`,
      [org.id],
    );
    expect(relayed[0]).toEqual({ relayed: CONTACTS, processed: 0 });

    // Redis loses every job before any fan-out ran.
    expect(await wipeQueues(redis, t.queuePrefix)).toBeGreaterThan(0);
    expect(await queue.getJob(events[0].event_id)).toBeUndefined();

    await t.startPeer({ ROLES: 'worker,scheduler' });
    await receiver.waitFor(() => PATHS.every((p) => receiver.on(p).length >= CONTACTS), 90_000, 'replayed deliveries');
    const processed = async () =>
      (
        await t.db.query(
          `SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND processed_at IS NOT NULL`,
          [org.id],
        )
      ).rows[0].n;
    for (let i = 0; i < 100 && (await processed()) < CONTACTS; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await processed()).toBe(CONTACTS);

    // A replay pass after processing finds nothing to replay (processed events are never claimed again), so
    // nothing is delivered twice.
    expect(await t.app.get(OutboxReplayJob).replay()).toBe(0);
    endpointIds.forEach((endpointId, i) => {
      const ids = receiver.on(PATHS[i]).map((r) => r.headers['x-webhook-id'] as string);
      expect(ids).toHaveLength(CONTACTS);
      expect(new Set(ids)).toEqual(new Set(events.map((e) => webhookId(e.event_id, endpointId))));
    });
    // Every delivery ran to its end: an attempt is logged before its job leaves the queue.
    const deliveryJobs = t.app.get(JobQueue).queue(QueueName.WebhookDeliveries);
    const jobIds = events.flatMap((e) => [
      eventDeliveryJobId(e.event_id),
      ...endpointIds.map((endpointId) => deliveryJobId(e.event_id, endpointId, 1)),
    ]);
    const pending = async () => (await Promise.all(jobIds.map((id) => deliveryJobs.getJob(id)))).some(Boolean);
    for (let i = 0; i < 100 && (await pending()); i++) await new Promise((r) => setTimeout(r, 200));
    expect(await pending()).toBe(false);
    const { rows: perDelivery } = await t.db.query(
      `SELECT event_id, endpoint_id, count(*)::int AS attempts FROM webhook_deliveries
        WHERE endpoint_id = ANY($1::uuid[]) GROUP BY 1, 2`,
      [endpointIds],
    );
    expect(perDelivery).toHaveLength(CONTACTS * PATHS.length);
    expect(perDelivery.filter((d) => d.attempts !== 1)).toEqual([]);
  });
});
