import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/infra/database/tx';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { JobName, QueueName } from '../../src/infra/queue/queue-names';
import { DomainEventFanoutService } from '../../src/modules/outbox/domain-event-fanout.service';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import {
  WebhookDeliveryJobData,
  deliveryJobId,
  deliveryJobOptions,
  eventDeliveryJobId,
} from '../../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { recordCallEnded, recordEvent } from './support/events';
import { Answer, Received, WebhookReceiver } from './support/receiver';

const stripe = new Stripe('sk_test_unused');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An independent check of the scheme, written from the spec's words rather than from our signer. */
function verifyByHand(raw: string, header: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${raw}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhook delivery engine', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '100,200,300', WEBHOOK_TIMEOUT_MS: '3000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  let n = 0;
  async function endpoint(org: TestOrg, events: string[], answers: Answer[] = []) {
    const path = `/hook-${++n}`;
    receiver.script(path, answers);
    const res = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}${path}`, events });
    expect(res.status).toBe(201);
    return { id: res.body.data.id as string, secret: res.body.data.secret as string, path };
  }
  const endpointRow = async (id: string) =>
    (await t.db.query('SELECT is_active, consecutive_failures, disabled_at FROM webhook_endpoints WHERE id = $1', [id]))
      .rows[0];
  const deliveries = async (id: string) =>
    (
      await t.db.query(
        'SELECT attempt, success, status_code, error, webhook_id, duration_ms FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, attempt',
        [id],
      )
    ).rows;
  /** The receiver sees a request a moment before the attempt is logged; wait for the log. */
  const loggedDeliveries = async (id: string, count: number) => {
    const deadline = Date.now() + 15000;
    for (;;) {
      const rows = await deliveries(id);
      if (rows.length >= count || Date.now() > deadline) return rows;
      await sleep(50);
    }
  };
  /** Waits until these delivery jobs left the queue store: each attempt ran to its end (or never existed). */
  const gone = async (ids: string[]) => {
    const queue = t.app.get(JobQueue).queue(QueueName.WebhookDeliveries);
    await waitUntil('the delivery jobs to leave the queue', async () =>
      (await Promise.all(ids.map((id) => queue.getJob(id)))).every((job) => !job),
    );
  };
  /** Waits until the event went through the fan-out (every delivery it makes is enqueued by then). */
  const fannedOut = async (eventId: string) => {
    await waitUntil(
      `event ${eventId} to be fanned out`,
      async () =>
        (await t.db.query('SELECT 1 FROM outbox_events WHERE event_id = $1 AND processed_at IS NOT NULL', [eventId]))
          .rowCount,
    );
  };
  const waitForRow = (id: string, predicate: (row: any) => boolean) =>
    waitUntil(`endpoint ${id} to reach the expected state`, async () => predicate(await endpointRow(id)));

  it('delivers a signed {event, timestamp, data} that Stripe and a hand-written verifier both accept', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.created']);
    const eventId = await recordEvent(t, org.id, 'contact.created', 'Ada');
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [req] = receiver.on(hook.path);
    const header = String(req.headers['x-webhook-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const viaStripe = stripe.webhooks.constructEvent(req.rawBody, header, hook.secret) as unknown as Record<
      string,
      unknown
    >;
    expect(viaStripe).toEqual({
      event: 'contact.created',
      timestamp: expect.any(String),
      livemode: true,
      data: expect.objectContaining({ title: 'Ada' }),
    });
    // The body is the Contact rendered from its row: what the API answers for it.
    const contact = viaStripe.data as { id: string };
    expect(contact).toEqual((await org.api.get(`/api/v1/contacts/${contact.id}`)).body.data);
    expect(new Date(viaStripe.timestamp as string).toISOString()).toBe(viaStripe.timestamp);
    expect(verifyByHand(req.rawBody, header, hook.secret)).toBe(true);
    expect(verifyByHand(req.rawBody.replace('Ada', 'Eve'), header, hook.secret)).toBe(false);
    expect(() => stripe.webhooks.constructEvent(req.rawBody, header, 'whsec_wrong')).toThrow();
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-webhook-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const rows = await loggedDeliveries(hook.id, 1);
    expect(rows).toEqual([
      expect.objectContaining({
        attempt: 1,
        success: true,
        status_code: 200,
        error: null,
        webhook_id: req.headers['x-webhook-id'],
      }),
    ]);
    const { rows: logged } = await t.db.query(
      'SELECT event_id, event_type FROM webhook_deliveries WHERE endpoint_id = $1',
      [hook.id],
    );
    expect(logged).toEqual([{ event_id: eventId, event_type: 'contact.created' }]);
  });

  it('delivers only subscribed events, only to active endpoints, and drops the transcript of call events', async () => {
    const org = await createOrg(t);
    const created = await endpoint(org, ['contact.created', 'call.ended']);
    const deletedOnly = await endpoint(org, ['contact.deleted']);
    const paused = await endpoint(org, ['contact.created', 'contact.deleted']);
    expect((await org.api.patch(`/api/v1/webhooks/${paused.id}`, { isActive: false })).status).toBe(200);
    const other = await createOrg(t);
    const otherOrgs = await endpoint(other, ['contact.created']);

    const recorded = [
      await recordEvent(t, org.id, 'contact.updated', 'c-2'),
      await recordEvent(t, org.id, 'contact.created', 'c-2'),
    ];
    const ended = await recordCallEnded(t, org.id, [{ role: 'user', content: 'hi', timestamp: 1 }]);
    recorded.push(ended.eventId, await recordEvent(t, org.id, 'contact.deleted', 'c-2'));
    await receiver.waitFor(() => receiver.on(created.path).length === 2 && receiver.on(deletedOnly.path).length === 1);
    // Every event went through the fan-out and every delivery it made ran to its end.
    for (const eventId of recorded) await fannedOut(eventId);
    const endpoints = [created, deletedOnly, paused, otherOrgs].map((e) => e.id);
    await gone(
      recorded.flatMap((eventId) => [
        eventDeliveryJobId(eventId),
        ...endpoints.map((id) => deliveryJobId(eventId, id, 1)),
      ]),
    );
    const events = (path: string) =>
      receiver
        .on(path)
        .map((r) => JSON.parse(r.rawBody).event)
        .sort();
    expect(events(created.path)).toEqual(['call.ended', 'contact.created']);
    expect(events(deletedOnly.path)).toEqual(['contact.deleted']);
    expect(receiver.on(paused.path)).toHaveLength(0);
    expect(receiver.on(otherOrgs.path)).toHaveLength(0);
    const call = receiver
      .on(created.path)
      .map((r) => JSON.parse(r.rawBody))
      .find((b) => b.event === 'call.ended');
    expect(call.data).toMatchObject({ id: ended.callId, status: 'ended' });
    expect(call.data).not.toHaveProperty('transcript');
    const { transcript, ...withoutTranscript } = (await org.api.get(`/api/v1/calls/${ended.callId}`)).body.data;
    expect(transcript).toEqual([{ role: 'user', content: 'hi', timestamp: 1 }]);
    expect(call.data).toEqual(withoutTranscript);
  });

  it('retries a non-2xx answer with the same X-Webhook-Id and a fresh signature, and logs each attempt', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.updated'], [500, 503, 200]);
    const eventId = await recordEvent(t, org.id, 'contact.updated', 'c-3');
    await receiver.waitFor(() => receiver.on(hook.path).length === 3);
    const reqs = receiver.on(hook.path);
    expect(new Set(reqs.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    for (const r of reqs)
      expect(verifyByHand(r.rawBody, String(r.headers['x-webhook-signature']), hook.secret)).toBe(true);
    // Delays of about 100 ms then 200 ms between attempts (configured), never less.
    expect(reqs[1].at - reqs[0].at).toBeGreaterThanOrEqual(95);
    expect(reqs[2].at - reqs[1].at).toBeGreaterThanOrEqual(195);
    // The successful third attempt ran to its end and scheduled no fourth.
    await gone([eventDeliveryJobId(eventId), ...[1, 2, 3].map((attempt) => deliveryJobId(eventId, hook.id, attempt))]);
    expect(
      await t.app
        .get(JobQueue)
        .queue(QueueName.WebhookDeliveries)
        .getJob(deliveryJobId(eventId, hook.id, 4)),
    ).toBeUndefined();
    expect(receiver.on(hook.path)).toHaveLength(3);
    const rows = await loggedDeliveries(hook.id, 3);
    expect(rows.map((r) => [r.attempt, r.success, r.status_code])).toEqual([
      [1, false, 500],
      [2, false, 503],
      [3, true, 200],
    ]);
    expect(rows[0].error).toContain('500');
    expect(await endpointRow(hook.id)).toMatchObject({ is_active: true, consecutive_failures: 0 });
  });

  it('a finished attempt leaves the queue, and a duplicate job of it (a fan-out run again) sends nothing twice', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.updated'], [500, 200]);
    const eventId = await recordEvent(t, org.id, 'contact.updated', 'c-dup');
    await receiver.waitFor(() => receiver.on(hook.path).length === 2);
    expect((await loggedDeliveries(hook.id, 2)).map((r) => [r.attempt, r.success])).toEqual([
      [1, false],
      [2, true],
    ]);
    // Both attempts are in the delivery log; their jobs leave the queue store (ids no longer held there).
    const attemptIds = [
      eventDeliveryJobId(eventId),
      ...[1, 2].map((attempt) => deliveryJobId(eventId, hook.id, attempt)),
    ];
    await gone(attemptIds);

    // The event's fan-out runs again (a relay re-enqueued it after its job was dropped) and a sweep re-adds the
    // retry: both jobs are accepted under their old ids, run, and find their attempt already in the log.
    await t.app
      .get(DomainEventFanoutService)
      .handle({ eventId, organizationId: org.id, type: 'contact.updated', occurredAt: new Date().toISOString() });
    const retry: WebhookDeliveryJobData = {
      eventId,
      organizationId: org.id,
      endpointId: hook.id,
      type: 'contact.updated',
      attempt: 2,
    };
    await t.app.get(JobQueue).add(JobName.DeliverWebhook, retry, deliveryJobOptions(retry));
    await gone(attemptIds);
    expect(receiver.on(hook.path)).toHaveLength(2);
    expect(await deliveries(hook.id)).toHaveLength(2);
  });

  it('fails a delivery after 1 + 3 attempts; redirects are not followed and timeouts fail', async () => {
    const org = await createOrg(t);
    const redirected = await endpoint(org, ['contact.updated'], [302, 301, 307, 308]);
    const slow = await endpoint(org, ['contact.updated'], ['hold', 200]);
    await recordEvent(t, org.id, 'contact.updated', 'c-4');
    await waitForRow(redirected.id, (r) => r.consecutive_failures === 1);
    expect(receiver.on(redirected.path)).toHaveLength(4);
    expect(receiver.on('/elsewhere')).toHaveLength(0);
    const rows = await loggedDeliveries(redirected.id, 4);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    expect(rows[0].error).toMatch(/redirect not followed/);

    await receiver.waitFor(() => receiver.on(slow.path).length === 2);
    const slowRows = await loggedDeliveries(slow.id, 2);
    expect(slowRows.map((r) => [r.attempt, r.success])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(slowRows[0].error).toMatch(/timeout/);
    expect(slowRows[0].duration_ms).toBeGreaterThanOrEqual(990);
  });

  it('counts a 2xx that arrives after WEBHOOK_TIMEOUT_MS as a failed attempt (a slow success is no success)', async () => {
    const org = await createOrg(t);
    const slow = await endpoint(org, ['contact.updated'], [{ status: 200, afterMs: 3500 }, 200]);
    await recordEvent(t, org.id, 'contact.updated', 'c-slow');
    const rows = await loggedDeliveries(slow.id, 2);
    expect(rows.map((r) => [r.attempt, r.success])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(rows[0].error).toMatch(/timeout after 3000 ms/);
  });

  it('disables an endpoint at the 10th consecutive failed delivery, not before', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.updated'], new Array(44).fill(500));
    for (let i = 0; i < 9; i++) await recordEvent(t, org.id, 'contact.updated', `c-${i}`);
    await waitForRow(hook.id, (r) => r.consecutive_failures === 9);
    expect(await endpointRow(hook.id)).toMatchObject({ is_active: true, disabled_at: null });
    expect(receiver.on(hook.path)).toHaveLength(36);
    await recordEvent(t, org.id, 'contact.updated', 'c-10');
    await waitForRow(hook.id, (r) => !r.is_active);
    const row = await endpointRow(hook.id);
    expect(row.consecutive_failures).toBe(10);
    expect(row.disabled_at).toBeInstanceOf(Date);
    expect(receiver.on(hook.path)).toHaveLength(40);
    expect((await org.api.get('/api/v1/webhooks')).body.data[0].isActive).toBe(false);
    // Disabled: new events are not delivered.
    const late = await recordEvent(t, org.id, 'contact.updated', 'c-11');
    await fannedOut(late);
    for (const jobId of [eventDeliveryJobId(late), deliveryJobId(late, hook.id, 1)])
      expect(await t.app.get(JobQueue).queue(QueueName.WebhookDeliveries).getJob(jobId)).toBeUndefined();
    expect(receiver.on(hook.path)).toHaveLength(40);
  });

  it('resets the failure count on any success', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.updated'], [500, 500, 500, 500, 200]);
    await recordEvent(t, org.id, 'contact.updated', 'c-5');
    await waitForRow(hook.id, (r) => r.consecutive_failures === 1);
    await recordEvent(t, org.id, 'contact.updated', 'c-6');
    await receiver.waitFor(() => receiver.on(hook.path).length === 5);
    await waitForRow(hook.id, (r) => r.consecutive_failures === 0);
  });

  it('signs a pending retry with the rotated secret; the old one no longer verifies', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.created'], ['hold', 200]);
    await recordEvent(t, org.id, 'contact.created', 'c-7');
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const rotated = await org.api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`);
    const newSecret = rotated.body.data.secret as string;
    await receiver.waitFor(() => receiver.on(hook.path).length === 2);
    const [first, retry] = receiver.on(hook.path);
    const sig = (r: Received) => String(r.headers['x-webhook-signature']);
    expect(verifyByHand(first.rawBody, sig(first), hook.secret)).toBe(true);
    expect(verifyByHand(retry.rawBody, sig(retry), newSecret)).toBe(true);
    expect(verifyByHand(retry.rawBody, sig(retry), hook.secret)).toBe(false);
    expect(() => stripe.webhooks.constructEvent(retry.rawBody, sig(retry), hook.secret)).toThrow();
    expect(stripe.webhooks.constructEvent(retry.rawBody, sig(retry), newSecret)).toBeTruthy();
    expect(retry.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
    // Neither secret is in the database as it is: the column holds the current one sealed with SECRETS_KEY.
    const stored = (await t.db.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [hook.id])).rows[0].secret;
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain(newSecret.slice(6));
    expect(stored).not.toContain(hook.secret.slice(6));
  });

  it('stops pending retries when the endpoint is deleted or disabled', async () => {
    const org = await createOrg(t);
    const deleted = await endpoint(org, ['contact.created'], ['hold', 500, 500, 500]);
    const disabled = await endpoint(org, ['contact.created'], ['hold', 500, 500, 500]);
    const eventId = await recordEvent(t, org.id, 'contact.created', 'c-8');
    await receiver.waitFor(() => receiver.on(deleted.path).length === 1 && receiver.on(disabled.path).length === 1);
    expect((await org.api.delete(`/api/v1/webhooks/${deleted.id}`)).status).toBe(204);
    expect((await org.api.patch(`/api/v1/webhooks/${disabled.id}`, { isActive: false })).status).toBe(200);
    // The held attempts time out after 3 s; every retry job they left runs to its end (a retry scheduled before
    // the endpoint changed finds it gone or disabled), and none reached the receivers.
    await gone([
      eventDeliveryJobId(eventId),
      ...[deleted.id, disabled.id].flatMap((id) => [1, 2, 3, 4].map((a) => deliveryJobId(eventId, id, a))),
    ]);
    expect(receiver.on(deleted.path)).toHaveLength(1);
    expect(receiver.on(disabled.path)).toHaveLength(1);
    expect(await deliveries(deleted.id)).toEqual([]);
    // Cancelled retries are not failed deliveries.
    expect(await endpointRow(disabled.id)).toMatchObject({ is_active: false, consecutive_failures: 0 });
  });

  it('cancels an attempt whose row is gone and gives back the endpoint slot it claimed meanwhile', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, ['contact.updated']);
    // An event whose contact is gone: its body renders to nothing while the attempt claims its slot.
    const eventId = await inTransaction(t.app.get(DataSource), (m) =>
      t.app
        .get(OutboxService)
        .record(m, { organizationId: org.id, livemode: true }, 'contact.updated', { contactId: randomUUID() }),
    );
    await fannedOut(eventId);
    await gone([eventDeliveryJobId(eventId), deliveryJobId(eventId, hook.id, 1)]);
    expect(receiver.on(hook.path)).toHaveLength(0);
    expect(await deliveries(hook.id)).toEqual([]);
    const leases = await t.db.query('SELECT job_id FROM webhook_delivery_leases WHERE endpoint_id = $1', [hook.id]);
    expect(leases.rows).toEqual([]);
  });

  it('a slow endpoint does not delay deliveries to others', async () => {
    const org = await createOrg(t);
    const slow = await endpoint(org, ['contact.updated'], new Array(20).fill('hold'));
    const fast = await endpoint(org, ['contact.updated']);
    for (let i = 0; i < 20; i++) await recordEvent(t, org.id, 'contact.updated', `s-${i}`);
    await receiver.waitFor(() => receiver.on(fast.path).length === 20);
    // Every fast delivery completed while the slow endpoint's requests were still hanging (not one of them has
    // timed out and been logged yet): the slow endpoint held no one up.
    expect(receiver.on(slow.path).length).toBeGreaterThanOrEqual(1);
    expect(await deliveries(slow.id)).toEqual([]);
  });
});
