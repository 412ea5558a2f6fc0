import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ChildProcess } from 'node:child_process';
import { Metrics } from '../../src/infra/metrics/metrics';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { webhookId } from '../../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { rows, startCampaign, waitForCampaign } from '../dialer/campaign-fixtures';
import { forkWorker, sigkill } from '../prove/support/fork-worker';
import { createOrg } from '../support/factory';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { RedisClusterUnderTest, startRedisCluster } from './support/redis-cluster';

const EVENTS = ['contact.created', 'call.started', 'call.ended', 'call.failed'];
const CONTACTS = 10;
const CALLS = 10;

/** Requests answered 5xx by `app` so far (its own HTTP metrics, every route and status). */
async function serverErrors(app: NestFastifyApplication): Promise<number> {
  const { values } = await app.get(Metrics).httpDuration.get();
  return values
    .filter((v) => v.metricName === 'http_request_duration_seconds_count' && String(v.labels.status).startsWith('5'))
    .reduce((n, v) => n + v.value, 0);
}

/**
 * The service on a Redis Cluster (REDIS_CLUSTER=true, REDIS_URL one node of three masters, docs/operations.md):
 * an api,scheduler instance and a worker in its own process, as production splits them. Every feature that
 * touches Redis runs: queues (contacts' and calls' events, dispatch, the simulator's timeline, webhook
 * deliveries, the dialer's steps, schedules) and the shared rate-limit counters. No node ever answers CROSSSLOT
 * (each queue's keys share one hash tag; each counter is one key), and no request is answered 5xx.
 */
describe('Redis Cluster: every feature on three masters', () => {
  let cluster: RedisClusterUnderTest;
  let t: TestApp;
  let worker: ChildProcess;
  let limited: NestFastifyApplication;
  let limitedUrl: string;
  let receiver: WebhookReceiver;
  let org: CallsOrg;
  const workerLog: string[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    receiver = await new WebhookReceiver().start();
    const env = { REDIS_URL: cluster.url, REDIS_CLUSTER: 'true', WEBHOOK_ALLOW_INSECURE: 'true' };
    t = await startTestApp({ env: { ...env, ROLES: 'api,scheduler' } });
    // The worker plays the simulator's calls: as quick as the test app's (test/support/test-app.ts).
    const quickCalls = { SIMULATOR_RING_MS: '50', SIMULATOR_CALL_MS: '300' };
    worker = await forkWorker(
      t,
      { ...env, ...quickCalls, LOG_LEVEL: 'warn' },
      { onOutput: (text) => workerLog.push(text) },
    );
    // A second API instance with a budget small enough to exhaust: its counters live on the cluster too.
    const peer = await t.startPeer({ ...env, ROLES: 'api', RATE_LIMIT_PER_MINUTE: '5' });
    limited = peer.app;
    limitedUrl = peer.baseUrl;
    org = await callingOrg(t, 10_000);
  }, 60_000);

  afterAll(async () => {
    if (worker) await sigkill(worker);
    await t?.close();
    await receiver?.stop();
    await cluster?.stop();
  });

  it('is ready: PostgreSQL and the cluster answer', async () => {
    const ready = await t.anonymous.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });

  it('creates contacts and calls, ends the calls and delivers every event exactly once', async () => {
    const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/cluster`, events: EVENTS });
    expect(hook.status).toBe(201);
    const endpointId: string = hook.body.data.id;

    const contacts = await Promise.all(
      Array.from({ length: CONTACTS }, (_, i) =>
        org.api.post('/api/v1/contacts', { title: `Cluster ${i}`, phone: `+1628310${String(i).padStart(4, '0')}` }),
      ),
    );
    expect(contacts.map((r) => r.status)).toEqual(Array(CONTACTS).fill(201));
    const search = await org.api.get('/api/v1/contacts/search?q=cluster');
    expect(search.status).toBe(200);
    expect(search.body.data).toHaveLength(CONTACTS);

    // Every simulator outcome (last digit 0-9): answered, voicemail, not answered and pipeline error.
    const calls = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        org.api.post('/api/v1/calls', { to: `+141555800${i}${i}`, from: org.from }),
      ),
    );
    expect(calls.filter((r) => r.status !== 201).map((r) => r.text)).toEqual([]);
    for (const call of calls) await waitForCall(org, call.body.data.id, finished, 30_000);

    const { rows: events } = await t.db.query<{ event_id: string }>(
      'SELECT event_id FROM outbox_events WHERE organization_id = $1 AND type = ANY($2)',
      [org.id, EVENTS],
    );
    // Each contact once; each call started once and ended or failed once.
    expect(events).toHaveLength(CONTACTS + 2 * CALLS);
    const expected = new Set(events.map((e) => webhookId(e.event_id, endpointId)));
    const received = () => receiver.on('/cluster').map((r) => r.headers['x-webhook-id'] as string);
    await receiver.waitFor(() => new Set(received()).size >= expected.size, 30_000, 'every event');
    // A duplicate could only come from an event fanned out again or an attempt still queued. Once every event went
    // through the fan-out, every attempt is logged and no delivery job is left on the cluster, none can follow.
    const deliveries = t.app.get(JobQueue).queue(QueueName.WebhookDeliveries);
    const logged = async () =>
      (await t.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]))
        .rows[0].n as number;
    await waitUntil(
      'every delivery to be logged and its job to leave the queue',
      async () => {
        const { rows: pending } = await t.db.query(
          'SELECT 1 FROM outbox_events WHERE organization_id = $1 AND type = ANY($2) AND processed_at IS NULL',
          [org.id, EVENTS],
        );
        const queued = await deliveries.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        return !pending.length && (await logged()) >= expected.size && Object.values(queued).every((n) => n === 0);
      },
      30_000,
    );
    expect(new Set(received())).toEqual(expected);
    expect(received()).toHaveLength(expected.size);
    expect(await logged()).toBe(expected.size);
  }, 60_000);

  it('runs a campaign to completion', async () => {
    const id = await startCampaign(org, { audience: { rows: rows('+1415559', 6) }, maxConcurrent: 3 });
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 30_000);
    expect(done.counts).toMatchObject({ total: 6, pending: 0, inProgress: 0, done: 6 });
  }, 40_000);

  it('counts rate limits on the cluster: one budget per key, 429 past it', async () => {
    const other = await createOrg(t);
    const api = new HttpClient(limitedUrl, { 'x-api-key': other.key });
    for (let i = 1; i <= 5; i++) {
      const res = await api.get('/api/v1/contacts');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(5 - i));
    }
    const refused = await api.get('/api/v1/contacts');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });

  it('never hit a cross-slot error, a 5xx or a logged worker error', async () => {
    const errors = await cluster.errorCounts();
    expect(errors.CROSSSLOT ?? 0).toBe(0);
    expect(await serverErrors(t.app)).toBe(0);
    expect(await serverErrors(limited)).toBe(0);
    const log = workerLog.join('');
    expect(log).not.toMatch(/CROSSSLOT/);
    // pino's numeric levels: 50 error, 60 fatal.
    expect(log.split('\n').filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
