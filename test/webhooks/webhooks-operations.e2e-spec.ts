import { createHmac } from 'node:crypto';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { recordEvent } from './support/events';
import { Answer, WebhookReceiver } from './support/receiver';

function signedWith(raw: string, header: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  return createHmac('sha256', secret).update(`${parts.t}.${raw}`).digest('hex') === parts.v1;
}

describe('webhook operations (extension): delivery log, re-send, recover, test ping', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,50,50', WEBHOOK_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  let n = 0;
  async function endpoint(org: TestOrg, answers: Answer[] = [], events = ['contact.created']) {
    const path = `/ops-${++n}`;
    receiver.script(path, answers);
    const res = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}${path}`, events });
    expect(res.status).toBe(201);
    return { id: res.body.data.id as string, secret: res.body.data.secret as string, path };
  }
  /** Polls the delivery list until `predicate` holds (deliveries settle asynchronously in the worker). */
  async function deliveriesUntil(org: TestOrg, id: string, predicate: (rows: any[]) => boolean, query = {}) {
    return waitUntil(`the deliveries of endpoint ${id} to settle`, async () => {
      const res = await org.api.get(`/api/v1/webhooks/${id}/deliveries`, { query });
      expect(res.status).toBe(200);
      return predicate(res.body.data) && (res.body.data as any[]);
    });
  }

  it('GET /webhooks/{id} returns the endpoint without its secret; another organization gets 404', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t);
    const hook = await endpoint(org);
    const res = await org.api.get(`/api/v1/webhooks/${hook.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: hook.id, url: `${receiver.url}${hook.path}`, isActive: true });
    expect(res.body.data.secret).toBeUndefined();
    expect((await other.api.get(`/api/v1/webhooks/${hook.id}`)).status).toBe(404);
  });

  it('lists deliveries newest first with attempts, HTTP status, duration, excerpt and error; filters and pages', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, [500, 500, 500, 500], ['contact.created', 'contact.deleted']);
    const failedEvent = await recordEvent(t, org.id, 'contact.created', 'c-1');
    await deliveriesUntil(org, hook.id, (rows) => rows.some((r) => r.status === 'failed'));
    const okEvent = await recordEvent(t, org.id, 'contact.deleted', 'c-2');
    const rows = await deliveriesUntil(org, hook.id, (all: any[]) => all.some((r) => r.status === 'delivered'));

    expect(rows.map((r) => r.eventId)).toEqual([okEvent, failedEvent]);
    const failed = rows[1];
    expect(failed).toMatchObject({ event: 'contact.created', status: 'failed', webhookEndpointId: hook.id });
    expect(failed.attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(failed.attempts[0]).toMatchObject({
      success: false,
      statusCode: 500,
      responseExcerpt: 'status 500',
      error: 'non-2xx response (status 500)',
    });
    expect(typeof failed.attempts[0].durationMs).toBe('number');
    // The delivery id is the X-Webhook-Id every attempt carried.
    const sent = receiver.on(hook.path).filter((r) => JSON.parse(r.rawBody).data.title === 'c-1');
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([failed.id]));
    expect(rows[0]).toMatchObject({ event: 'contact.deleted', status: 'delivered' });
    expect(rows[0].attempts).toEqual([expect.objectContaining({ success: true, statusCode: 200, error: null })]);

    const onlyFailed = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, { query: { status: 'failed' } });
    expect(onlyFailed.body.data.map((r: any) => r.eventId)).toEqual([failedEvent]);
    const byEvent = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, {
      query: { event: 'contact.deleted' },
    });
    expect(byEvent.body.data.map((r: any) => r.eventId)).toEqual([okEvent]);
    const page1 = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, { query: { limit: 1 } });
    expect(page1.body.pagination).toMatchObject({ hasMore: true, pageSize: 1 });
    const page2 = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, {
      query: { limit: 1, cursor: page1.body.pagination.cursor },
    });
    expect(page2.body.data.map((r: any) => r.eventId)).toEqual([failedEvent]);
    expect(page2.body.pagination).toMatchObject({ hasMore: false, cursor: null });
    const wrongCursor = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, {
      query: { limit: 1, status: 'failed', cursor: page1.body.pagination.cursor },
    });
    expect(wrongCursor.status).toBe(400);
    expect(wrongCursor.body.error.code).toBe('INVALID_CURSOR');
    const badStatus = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, { query: { status: 'lost' } });
    expect(badStatus.status).toBe(400);

    const one = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries/${failed.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(failed);
  });

  it('retry sends a new attempt now with the same X-Webhook-Id, signed with the current secret', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, [500, 500, 500, 500]);
    await recordEvent(t, org.id, 'contact.created', 'c-retry');
    const [failed] = await deliveriesUntil(org, hook.id, (rows) => rows[0]?.status === 'failed');
    const rotated = await org.api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`);
    const before = receiver.on(hook.path).length;

    const res = await org.api.post(`/api/v1/webhooks/${hook.id}/deliveries/${failed.id}/retry`);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ deliveryId: failed.id, attempt: 5 });
    await receiver.waitFor(() => receiver.on(hook.path).length === before + 1);
    const replay = receiver.on(hook.path)[before];
    expect(replay.headers['x-webhook-id']).toBe(failed.id);
    expect(signedWith(replay.rawBody, String(replay.headers['x-webhook-signature']), rotated.body.data.secret)).toBe(
      true,
    );
    expect(signedWith(replay.rawBody, String(replay.headers['x-webhook-signature']), hook.secret)).toBe(false);
    expect(JSON.parse(replay.rawBody)).toMatchObject({ event: 'contact.created', data: { title: 'c-retry' } });
    const [after] = await deliveriesUntil(org, hook.id, (rows) => rows[0]?.status === 'delivered');
    expect(after.attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
  });

  it('retry refuses a disabled endpoint and a test ping; other organizations get 404 on every route', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t);
    const hook = await endpoint(org, [500, 500, 500, 500]);
    await recordEvent(t, org.id, 'contact.created', 'c-x');
    const [failed] = await deliveriesUntil(org, hook.id, (rows) => rows[0]?.status === 'failed');
    const retryPath = `/api/v1/webhooks/${hook.id}/deliveries/${failed.id}/retry`;
    expect((await other.api.post(retryPath)).status).toBe(404);
    expect((await other.api.get(`/api/v1/webhooks/${hook.id}/deliveries/${failed.id}`)).status).toBe(404);
    expect((await other.api.get(`/api/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
    expect((await other.api.post(`/api/v1/webhooks/${hook.id}/test`)).status).toBe(404);
    expect((await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries/${other.id}`)).status).toBe(404);

    await org.api.patch(`/api/v1/webhooks/${hook.id}`, { isActive: false });
    const disabled = await org.api.post(retryPath);
    expect(disabled.status).toBe(422);
    expect(disabled.body.error.code).toBe('INVALID_STATE');

    const ping = await org.api.post(`/api/v1/webhooks/${hook.id}/test`);
    const pingRetry = await org.api.post(`/api/v1/webhooks/${hook.id}/deliveries/${ping.body.data.id}/retry`);
    expect(pingRetry.status).toBe(422);
  });

  it('test sends a signed webhook.test to that endpoint only and answers with the outcome', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org);
    const bystander = await endpoint(org);
    const before = receiver.on(bystander.path).length;
    const ok = await org.api.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ event: 'webhook.test', status: 'delivered', webhookEndpointId: hook.id });
    expect(ok.body.data.attempts).toEqual([expect.objectContaining({ attempt: 1, success: true, statusCode: 200 })]);
    const [req] = receiver.on(hook.path);
    expect(req.headers['x-webhook-id']).toBe(ok.body.data.id);
    expect(signedWith(req.rawBody, String(req.headers['x-webhook-signature']), hook.secret)).toBe(true);
    expect(JSON.parse(req.rawBody)).toMatchObject({ event: 'webhook.test', data: { webhookEndpointId: hook.id } });
    expect(receiver.on(bystander.path).length).toBe(before);

    receiver.script(hook.path, [503]);
    const bad = await org.api.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(bad.status).toBe(200);
    expect(bad.body.data).toMatchObject({ status: 'failed' });
    expect(bad.body.data.attempts[0]).toMatchObject({ statusCode: 503, success: false });
    // A test ping is never retried: the ping is sent before the answer, and no attempt of it waits in the queue.
    const queued = await t.app
      .get(JobQueue)
      .queue(QueueName.WebhookDeliveries)
      .getJobs(['waiting', 'delayed', 'prioritized', 'active', 'waiting-children']);
    expect(queued.filter((job) => job.data.endpointId === hook.id)).toEqual([]);
    expect(receiver.on(hook.path)).toHaveLength(2);
    const tests = await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, { query: { event: 'webhook.test' } });
    expect(tests.body.data.map((d: any) => d.id)).toEqual([bad.body.data.id, ok.body.data.id]);
    // Nor re-sent by hand: the refusal says what to do instead, in words rather than a route.
    const resend = await org.api.post(`/api/v1/webhooks/${hook.id}/deliveries/${bad.body.data.id}/retry`);
    expect(resend.status).toBe(422);
    expect(resend.body.error).toEqual({
      code: 'INVALID_STATE',
      message: 'A test ping is not re-sent: it is not an event to deliver again. Send a new test ping instead.',
    });
  });

  it('recover re-sends every failed delivery since a time, keeps their ids, and runs once a minute', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org, [500, 500, 500, 500, 500, 500, 500, 500]);
    const since = new Date().toISOString();
    await recordEvent(t, org.id, 'contact.created', 'r-1');
    await recordEvent(t, org.id, 'contact.created', 'r-2');
    const failed = await deliveriesUntil(
      org,
      hook.id,
      (rows) => rows.filter((r) => r.status === 'failed').length === 2,
    );
    const before = receiver.on(hook.path).length;

    const res = await org.api.post(`/api/v1/webhooks/${hook.id}/recover`, undefined, { query: { since } });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ queued: 2, hasMore: false, nextSince: null });
    await receiver.waitFor(() => receiver.on(hook.path).length === before + 2);
    const resent = receiver.on(hook.path).slice(before);
    expect(new Set(resent.map((r) => r.headers['x-webhook-id']))).toEqual(new Set(failed.map((d) => d.id)));
    await deliveriesUntil(org, hook.id, (rows) => rows.every((r) => r.status === 'delivered'));

    const again = await org.api.post(`/api/v1/webhooks/${hook.id}/recover`, undefined, { query: { since } });
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMITED');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);

    const tooOld = new Date(Date.now() - 8 * 86_400_000).toISOString();
    const old = await org.api.post(`/api/v1/webhooks/${hook.id}/recover`, undefined, { query: { since: tooOld } });
    expect(old.status).toBe(400);
    expect(old.body.error.message).toContain('since');
    const garbled = await org.api.post(`/api/v1/webhooks/${hook.id}/recover`, undefined, {
      query: { since: 'yesterday' },
    });
    expect(garbled.status).toBe(400);
    expect(garbled.body.error.code).toBe('VALIDATION_ERROR');
    expect((await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries/not-a-delivery`)).status).toBe(404);
  });

  it('reads need webhooks:read, re-sends and pings need webhooks:write', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org);
    const ping = await org.api.post(`/api/v1/webhooks/${hook.id}/test`);
    const reader = await org.keyWith(['webhooks:read']);
    const stranger = await org.keyWith(['calls:read']);
    const reads = [`/api/v1/webhooks/${hook.id}`, `/api/v1/webhooks/${hook.id}/deliveries`];
    reads.push(`/api/v1/webhooks/${hook.id}/deliveries/${ping.body.data.id}`);
    for (const path of reads) {
      expect((await reader.api.get(path)).status).toBe(200);
      expect((await stranger.api.get(path)).status).toBe(403);
    }
    const writes = [
      `/api/v1/webhooks/${hook.id}/test`,
      `/api/v1/webhooks/${hook.id}/deliveries/${ping.body.data.id}/retry`,
      `/api/v1/webhooks/${hook.id}/recover?since=${encodeURIComponent(new Date().toISOString())}`,
    ];
    for (const path of writes) {
      const res = await reader.api.post(path);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('allows 10 test pings and re-sends together per endpoint per minute, then 429 with Retry-After', async () => {
    const org = await createOrg(t);
    const hook = await endpoint(org);
    const other = await endpoint(org);
    const pings: number[] = [];
    for (let i = 0; i < 10; i++) pings.push((await org.api.post(`/api/v1/webhooks/${hook.id}/test`)).status);
    expect(pings).toEqual(Array(10).fill(200));
    expect(receiver.on(hook.path)).toHaveLength(10);

    const limited = await org.api.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A re-send of a real delivery shares the budget.
    await recordEvent(t, org.id, 'contact.created', 'c-budget');
    const rows = await deliveriesUntil(org, hook.id, (all: any[]) =>
      all.some((r: any) => r.event === 'contact.created' && r.status === 'delivered'),
    );
    const delivered = rows.find((r: any) => r.event === 'contact.created');
    const resend = await org.api.post(`/api/v1/webhooks/${hook.id}/deliveries/${delivered.id}/retry`);
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing was sent for the refused requests: 10 pings and the event's own delivery.
    expect(receiver.on(hook.path)).toHaveLength(11);
    // Another endpoint has its own budget.
    expect((await org.api.post(`/api/v1/webhooks/${other.id}/test`)).status).toBe(200);
  });
});

describe('webhook operations with a long retry schedule', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '600000' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('a delivery waiting for its automatic retry is pending, and a manual retry of it is 409', async () => {
    const org = await createOrg(t);
    receiver.script('/pending', [500]);
    const res = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/pending`, events: ['contact.created'] });
    const id = res.body.data.id as string;
    await recordEvent(t, org.id, 'contact.created', 'c-pending');
    const rows = await waitUntil('the first delivery to be listed', async () => {
      const listed: any[] = (await org.api.get(`/api/v1/webhooks/${id}/deliveries`)).body.data;
      return listed.length > 0 && listed;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', attempts: [expect.objectContaining({ statusCode: 500 })] });
    const pending = await org.api.get(`/api/v1/webhooks/${id}/deliveries`, { query: { status: 'pending' } });
    expect(pending.body.data).toHaveLength(1);
    const conflict = await org.api.post(`/api/v1/webhooks/${id}/deliveries/${rows[0].id}/retry`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');
  });
});
