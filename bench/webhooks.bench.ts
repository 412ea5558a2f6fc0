/**
 * Webhook delivery benchmark: deliveries per second to a local receiver, event-to-first-attempt latency, and what
 * each delivery costs in CPU (the server process and its PostgreSQL backends) and in PostgreSQL transactions, and
 * (for the burst) how often an attempt was deferred for a share or a slot. Run: `npm run bench webhooks` (targets:
 * >= 2,000 deliveries/s in the burst, p99 <= 250 ms at 500/s).
 *
 * Boots the real app (src/main.ts, api + worker + scheduler in one process of its own, Redis queues) on a fresh
 * database, with 10 organizations x 5 endpoints subscribed to `contact.created`, all pointing at one keep-alive
 * HTTP receiver in this process. Events are recorded here through the app's OutboxService, as a write would.
 * Phase 1 (throughput): a burst of events; rate = deliveries / time from the first event recorded to the last
 * delivery received. Phase 2 (latency): a steady stream at each rate of BENCH_STEADY_RATES (events per second;
 * x 5 endpoints deliveries per second); latency = time a delivery's first attempt reaches the receiver minus the
 * event's occurredAt (same clock). Phase 3 (queue store): Redis bytes per event of the largest contact the bounds
 * allow (16 KB of custom fields), delivered to 5 endpoints, once every attempt is logged and finished (the hostile-tenant
 * target: <= 4 KB). Knobs: BENCH_EVENTS (1000), BENCH_STEADY_RATES (40,100), BENCH_STEADY_SECONDS (5),
 * BENCH_CPU_PROFILE_DIR (the server writes a V8 CPU profile there on exit).
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/infra/database/data-source-options';
import { QueueName } from '../src/infra/queue/queue-names';
import { OutboxEventsRepository } from '../src/modules/outbox/outbox-events.repository';
import { OutboxService } from '../src/modules/outbox/outbox.service';
import { OutboxWakeup } from '../src/modules/outbox/outbox-wakeup';
import globalSetup from '../test/support/global-setup';
import { TEST_REDIS_URL, createTestDatabase } from '../test/support/databases';
import { createOrg } from '../test/support/factory';
import { queueBytes } from '../test/support/queue-bytes';
import { CpuMeter, CpuSplit, memoryOf } from './cpu-meter';
import { deliveryOutcomes } from './delivery-outcomes';
import { freePort, loadavg, startOurServer } from './server-process';
import { inTransaction } from '../src/infra/database/tx';

const ORGS = 10;
const ENDPOINTS_PER_ORG = 5;
const BURST_EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const STEADY_RATES = (process.env.BENCH_STEADY_RATES ?? '40,100').split(',').map(Number);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 5);
const LARGE_EVENTS = 100;
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
/** A maximal contact's document: 100 custom fields filling the 16 KB bound, the longest notes and tags. */
interface ContactFields {
  title: string;
  notes?: string;
  tags?: string[];
  customFields?: Record<string, string>;
}
const largeContact = (): ContactFields => ({
  title: 'T'.repeat(200),
  notes: 'n'.repeat(5000),
  tags: Array.from({ length: 20 }, (_, k) => `tag-${k}-${'x'.repeat(40)}`),
  customFields: Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`field_${k}`, 'v'.repeat(140)])),
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Arrival {
  at: number;
  timestamp: string;
  id: string;
  contact: string;
}

/**
 * CPU and PostgreSQL transactions per delivery over one phase (pg_stat_database counts every commit), and the CPU
 * of this process, which records the events and receives the deliveries (is the load generator the limit?).
 */
async function costMeter(meter: CpuMeter, pid: number, db: Pool) {
  const transactions = async () => {
    // The statistics of other backends reach pg_stat_database within a second of their last activity.
    await sleep(1100);
    const { rows } = await db.query<{ n: string }>(
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0].n);
  };
  const xactBefore = await transactions();
  const spent = await meter.start([pid]);
  const benchCpu = process.cpuUsage();
  return async (deliveries: number) => {
    const bench = process.cpuUsage(benchCpu);
    const cpu: CpuSplit = await spent();
    const xacts = (await transactions()) - xactBefore;
    return {
      serverCpuMsPerDelivery: +(cpu.nodeMs / deliveries).toFixed(2),
      postgresCpuMsPerDelivery: +(cpu.postgresMs / deliveries).toFixed(2),
      recorderAndReceiverCpuMsPerDelivery: +((bench.user + bench.system) / 1000 / deliveries).toFixed(2),
      postgresTransactionsPerDelivery: +(xacts / deliveries).toFixed(2),
    };
  };
}

async function main(): Promise<void> {
  const arrivals: Arrival[] = [];
  let waiter: (() => void) | undefined;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({
        at: Date.now(),
        timestamp: body.timestamp,
        id: String(req.headers['x-webhook-id']),
        contact: String(body.data.id),
      });
      res.writeHead(200).end('ok');
      waiter?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const waitForArrivals = (n: number, timeoutMs = 180_000) =>
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
  const database = await createTestDatabase();
  const queuePrefix = `w${randomBytes(5).toString('hex')}`;
  let server: ChildProcess | undefined;
  const db = new Pool({ connectionString: database.url, max: 1 });
  const dataSource = new DataSource(dataSourceOptions(database.url, [], 10));
  const redis = new IORedis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const deliveriesQueue = new Queue(QueueName.WebhookDeliveries, { connection: redis, prefix: queuePrefix });
  const meter = new CpuMeter(database.url);
  const metricsPort = await freePort();
  try {
    const ours = await startOurServer(
      database.url,
      { QUEUE_PREFIX: queuePrefix, WEBHOOK_ALLOW_INSECURE: 'true', METRICS_PORT: String(metricsPort) },
      CPU_PROFILE_DIR,
    );
    server = ours.server;
    const { baseUrl, admin } = ours;
    const orgs: Array<{ id: string }> = [];
    for (let i = 0; i < ORGS; i++) {
      const org = await createOrg({ admin, baseUrl });
      for (let e = 0; e < ENDPOINTS_PER_ORG; e++) {
        const res = await org.api.post('/api/v1/webhooks', { url, events: ['contact.created'] });
        if (res.status !== 201) throw new Error(`create endpoint: ${res.status}`);
      }
      orgs.push(org);
    }
    await dataSource.initialize();
    const outbox = new OutboxService(new OutboxEventsRepository(dataSource), new OutboxWakeup(dataSource));
    let phones = 0;
    // A contact row and its event in one transaction, as the contacts service writes them; the body is rendered
    // from the row when each delivery is sent.
    const record = (orgId: string, id: string, contact: ContactFields = { title: `Contact ${id}` }) =>
      inTransaction(dataSource, async (m) => {
        const contactId = randomUUID();
        await m.query(
          `INSERT INTO contacts (id, organization_id, livemode, title, phone, notes, tags, custom_fields)
           VALUES ($1, $2, true, $3, $4, $5, $6, $7)`,
          [
            contactId,
            orgId,
            contact.title,
            `+1555${String(++phones).padStart(7, '0')}`,
            contact.notes ?? null,
            contact.tags ?? [],
            JSON.stringify(contact.customFields ?? {}),
          ],
        );
        return outbox.record(m, { organizationId: orgId, livemode: true }, 'contact.created', { contactId });
      });
    const load = loadavg();

    // Phase 1: burst.
    const expected = BURST_EVENTS * ENDPOINTS_PER_ORG;
    const burstCost = await costMeter(meter, server.pid ?? 0, db);
    const started = Date.now();
    for (let i = 0; i < BURST_EVENTS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, BURST_EVENTS - i) }, (_, k) => record(orgs[(i + k) % ORGS].id, `c-${i + k}`)),
      );
    }
    const recordedMs = Date.now() - started;
    await waitForArrivals(expected);
    const burstMs = arrivals[arrivals.length - 1].at - started;
    const firstToLastMs = arrivals[expected - 1].at - arrivals[0].at;
    const unique = new Set(arrivals.map((a) => a.id)).size;
    const burstLatencies = arrivals
      .slice(0, expected)
      .map((a) => a.at - Date.parse(a.timestamp))
      .sort((a, b) => a - b);
    const burst = {
      events: BURST_EVENTS,
      deliveries: expected,
      distinctWebhookIds: unique,
      recordingMs: recordedMs,
      totalMs: burstMs,
      deliveriesPerSecond: Math.round((expected / burstMs) * 1000),
      firstToLastDeliveryMs: firstToLastMs,
      deliveriesPerSecondOnceFlowing: Math.round((expected / firstToLastMs) * 1000),
      latencyUnderBurstMs: { p50: percentile(burstLatencies, 50), p99: percentile(burstLatencies, 99) },
      ...(await burstCost(expected)),
      // Attempts parked for a share or a slot during the burst (the server delivered nothing before it).
      deferralsPerDelivery: (await deliveryOutcomes(`http://127.0.0.1:${metricsPort}/metrics`)).deferralsPerDelivery,
    };

    // Phase 2: steady streams, latency of first attempts. Events are paced against the clock (a late timer does
    // not lower the rate).
    const steady = [];
    for (const [phase, rate] of STEADY_RATES.entries()) {
      const from = arrivals.length;
      const total = rate * STEADY_SECONDS;
      const cost = await costMeter(meter, server.pid ?? 0, db);
      const phaseStart = Date.now();
      const recorded: Array<Promise<unknown>> = [];
      for (let i = 0; i < total; i++) {
        const due = phaseStart + (i * 1000) / rate;
        if (due > Date.now()) await sleep(due - Date.now());
        recorded.push(record(orgs[i % ORGS].id, `s${phase}-${i}`));
      }
      await Promise.all(recorded);
      await waitForArrivals(from + total * ENDPOINTS_PER_ORG);
      const latencies = arrivals
        .slice(from)
        .map((a) => a.at - Date.parse(a.timestamp))
        .sort((a, b) => a - b);
      steady.push({
        eventsPerSecond: rate,
        deliveriesPerSecond: rate * ENDPOINTS_PER_ORG,
        deliveries: latencies.length,
        eventToFirstAttemptMs: {
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          max: latencies[latencies.length - 1],
        },
        ...(await cost(latencies.length)),
      });
    }

    // Phase 3: what large events leave in Redis once delivered (every job finished), split into the queue keys
    // proper and the events streams (a ring capped per queue, a fixed cost once full).
    const queues = async () => {
      let all = 0;
      let streams = 0;
      for (const queue of [':domain-events:', ':webhook-deliveries:']) {
        all += await queueBytes(redis, queuePrefix, queue);
        streams += await queueBytes(redis, queuePrefix, `${queue}events`);
      }
      return { streams, rest: all - streams };
    };
    const settle = async () => {
      for (;;) {
        const counts = await deliveriesQueue.getJobCounts();
        if (!counts.waiting && !counts.active && !counts.delayed && !counts.completed) return;
        await sleep(100);
      }
    };
    await settle();
    const bytesBefore = await queues();
    const largeStart = arrivals.length;
    for (let i = 0; i < LARGE_EVENTS; i++) await record(orgs[i % ORGS].id, `large-${i}`, largeContact());
    await waitForArrivals(largeStart + LARGE_EVENTS * ENDPOINTS_PER_ORG);
    await settle();
    const bytesAfter = await queues();

    console.log(
      JSON.stringify(
        {
          loadAverageBefore: load,
          loadAverageAfter: loadavg(),
          burst,
          steady,
          queueStore: {
            largeEvents: LARGE_EVENTS,
            endpointsPerEvent: ENDPOINTS_PER_ORG,
            documentBytes: JSON.stringify(largeContact()).length,
            redisBytesPerEvent: Math.round((bytesAfter.rest - bytesBefore.rest) / LARGE_EVENTS),
            eventsStreamBytesPerEvent: Math.round((bytesAfter.streams - bytesBefore.streams) / LARGE_EVENTS),
            eventsStreamsBytesTotal: bytesAfter.streams,
          },
          server: memoryOf(server.pid),
          targets: { deliveriesPerSecond: '>= 2000', p99MsAt500PerSecond: '<= 250', redisBytesPerEvent: '<= 4096' },
        },
        null,
        2,
      ),
    );
  } finally {
    // SIGTERM lets the server shut down cleanly, which is also when it writes its CPU profile.
    const exited = server && new Promise((r) => server!.once('exit', r));
    server?.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    await meter.end();
    await deliveriesQueue.close();
    redis.disconnect();
    if (dataSource.isInitialized) await dataSource.destroy();
    await db.end();
    receiver.close();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
