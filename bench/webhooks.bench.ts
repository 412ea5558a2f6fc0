/**
 * Webhook delivery benchmark: deliveries per second to a local receiver, and event-to-first-attempt latency.
 * Run: `npx ts-node -P tsconfig.spec.json bench/webhooks.bench.ts` (targets: >= 500 deliveries/s, p99 < 500 ms).
 *
 * Boots the real app (api + worker + scheduler in one process, Redis queues) on a fresh database, with
 * 10 organizations x 5 endpoints subscribed to `contact.created`, all pointing at one keep-alive HTTP receiver.
 * Phase 1 (throughput): a burst of events recorded through the outbox; rate = deliveries / time from the first
 * event recorded to the last delivery received. Phase 2 (latency): a steady stream at a moderate rate; latency
 * = time a delivery's first attempt reaches the receiver minus the event's occurredAt (same clock). Phase 3
 * (queue store): Redis bytes per event of the largest contact the bounds allow (16 KB of custom fields),
 * delivered to 5 endpoints, once every attempt is logged and finished (issue 16's target: <= 4 KB).
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import IORedis from 'ioredis';
import { DataSource } from 'typeorm';
import { JobQueue } from '../src/infra/queue/job-queue';
import { QueueName } from '../src/infra/queue/queue-names';
import { OutboxService } from '../src/modules/outbox/outbox.service';
import globalSetup from '../test/support/global-setup';
import { TEST_REDIS_URL } from '../test/support/databases';
import { createOrg } from '../test/support/factory';
import { queueBytes } from '../test/support/queue-bytes';
import { startTestApp } from '../test/support/test-app';

const ORGS = 10;
const ENDPOINTS_PER_ORG = 5;
const BURST_EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const STEADY_EVENTS_PER_S = 40;
const STEADY_SECONDS = 5;
const LARGE_EVENTS = 100;
/** A maximal contact's document: 100 custom fields filling the 16 KB bound, the longest notes and tags. */
const largeContact = (i: number) => ({
  id: `large-${i}`,
  title: 'T'.repeat(200),
  notes: 'n'.repeat(5000),
  tags: Array.from({ length: 20 }, (_, k) => `tag-${k}-${'x'.repeat(40)}`),
  customFields: Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`field_${k}`, 'v'.repeat(140)])),
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const arrivals: Array<{ at: number; timestamp: string; id: string }> = [];
  let waiter: (() => void) | undefined;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ at: Date.now(), timestamp: body.timestamp, id: String(req.headers['x-webhook-id']) });
      res.writeHead(200).end('ok');
      waiter?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const waitForArrivals = (n: number, timeoutMs = 120_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${arrivals.length}/${n} deliveries arrived`)), timeoutMs);
      waiter = () => {
        if (arrivals.length >= n) {
          clearTimeout(timer);
          resolve();
        }
      };
      waiter();
    });

  await globalSetup();
  const t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
  const orgs: Array<{ id: string }> = [];
  for (let i = 0; i < ORGS; i++) {
    const org = await createOrg(t);
    for (let e = 0; e < ENDPOINTS_PER_ORG; e++) {
      const res = await org.api.post('/api/v1/webhooks', { url, events: ['contact.created'] });
      if (res.status !== 201) throw new Error(`create endpoint: ${res.status}`);
    }
    orgs.push(org);
  }
  const dataSource = t.app.get(DataSource);
  const outbox = t.app.get(OutboxService);
  const record = (orgId: string, i: number, data: Record<string, unknown> = { id: `c-${i}`, name: `Contact ${i}` }) =>
    dataSource.transaction((m) => outbox.record(m, orgId, 'contact.created', data));

  // Phase 1: burst.
  const expected = BURST_EVENTS * ENDPOINTS_PER_ORG;
  const started = Date.now();
  for (let i = 0; i < BURST_EVENTS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, BURST_EVENTS - i) }, (_, k) => record(orgs[(i + k) % ORGS].id, i + k)),
    );
  }
  const recordedMs = Date.now() - started;
  await waitForArrivals(expected);
  const burstMs = arrivals[arrivals.length - 1].at - started;
  const rate = (expected / burstMs) * 1000;
  const firstToLastMs = arrivals[expected - 1].at - arrivals[0].at;
  const unique = new Set(arrivals.map((a) => a.id)).size;

  // Phase 2: steady stream, latency of first attempts.
  const steadyStart = arrivals.length;
  const steadyTotal = STEADY_EVENTS_PER_S * STEADY_SECONDS;
  for (let i = 0; i < steadyTotal; i++) {
    void record(orgs[i % ORGS].id, 100_000 + i);
    await new Promise((r) => setTimeout(r, 1000 / STEADY_EVENTS_PER_S));
  }
  await waitForArrivals(steadyStart + steadyTotal * ENDPOINTS_PER_ORG);
  const latencies = arrivals
    .slice(steadyStart)
    .map((a) => a.at - Date.parse(a.timestamp))
    .sort((a, b) => a - b);
  const burstLatencies = arrivals
    .slice(0, expected)
    .map((a) => a.at - Date.parse(a.timestamp))
    .sort((a, b) => a - b);

  // Phase 3: what large events leave in Redis once delivered (every job finished), split into the queue keys
  // proper and the events streams (a ring capped per queue, a fixed cost once full).
  const redis = new IORedis(TEST_REDIS_URL);
  const queues = async () => {
    let all = 0;
    let streams = 0;
    for (const queue of [':domain-events:', ':webhook-deliveries:']) {
      all += await queueBytes(redis, t.queuePrefix, queue);
      streams += await queueBytes(redis, t.queuePrefix, `${queue}events`);
    }
    return { streams, rest: all - streams };
  };
  const pendingDeliveries = async () => await t.app.get(JobQueue).queue(QueueName.WebhookDeliveries).getJobCounts();
  const settle = async () => {
    for (;;) {
      const counts = await pendingDeliveries();
      if (!counts.waiting && !counts.active && !counts.delayed && !counts.completed) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await settle();
  const bytesBefore = await queues();
  const largeStart = arrivals.length;
  for (let i = 0; i < LARGE_EVENTS; i++) await record(orgs[i % ORGS].id, 200_000 + i, largeContact(i));
  await waitForArrivals(largeStart + LARGE_EVENTS * ENDPOINTS_PER_ORG);
  await settle();
  const bytesAfter = await queues();
  redis.disconnect();

  console.log(
    JSON.stringify(
      {
        burst: {
          events: BURST_EVENTS,
          deliveries: expected,
          distinctWebhookIds: unique,
          recordingMs: recordedMs,
          totalMs: burstMs,
          deliveriesPerSecond: Math.round(rate),
          firstToLastDeliveryMs: firstToLastMs,
          deliveriesPerSecondOnceFlowing: Math.round((expected / firstToLastMs) * 1000),
          latencyUnderBurstMs: { p50: percentile(burstLatencies, 50), p99: percentile(burstLatencies, 99) },
        },
        steady: {
          eventsPerSecond: STEADY_EVENTS_PER_S,
          deliveriesPerSecond: STEADY_EVENTS_PER_S * ENDPOINTS_PER_ORG,
          deliveries: latencies.length,
          eventToFirstAttemptMs: {
            p50: percentile(latencies, 50),
            p99: percentile(latencies, 99),
            max: latencies[latencies.length - 1],
          },
        },
        queueStore: {
          largeEvents: LARGE_EVENTS,
          endpointsPerEvent: ENDPOINTS_PER_ORG,
          documentBytes: JSON.stringify(largeContact(0)).length,
          redisBytesPerEvent: Math.round((bytesAfter.rest - bytesBefore.rest) / LARGE_EVENTS),
          eventsStreamBytesPerEvent: Math.round((bytesAfter.streams - bytesBefore.streams) / LARGE_EVENTS),
          eventsStreamsBytesTotal: bytesAfter.streams,
        },
        targets: { deliveriesPerSecond: '>= 500', p99Ms: '< 500', redisBytesPerEvent: '<= 4096' },
      },
      null,
      2,
    ),
  );
  await t.close();
  receiver.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
