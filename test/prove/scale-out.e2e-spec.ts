import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { JobName, QueueName } from '../../src/infra/queue/queue-names';
import { SWEEP_EVERY_MS } from '../../src/modules/calls/dispatch/call-sweeper.job';
import { addMonths } from '../../src/modules/usage/allocation';
import { SubscriptionLifecycleService } from '../../src/modules/usage/subscription-lifecycle.service';
import { webhookId } from '../../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { createOrg } from '../support/factory';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';

const CALLS = 60;
const CALL_EVENTS = ['call.started', 'call.ended', 'call.failed'];

/**
 * Three instances on one PostgreSQL and one Redis, as in production: two full ones (api, worker, scheduler) and
 * a worker-only one. Under a burst of calls created through both APIs, every call is dispatched, settled and
 * announced exactly once, every webhook event reaches the receiver, and scheduled work runs once cluster-wide.
 * (test/calls/calls-scale-out.e2e-spec.ts covers dispatch alone; this adds settlement, webhooks and cron.)
 */
describe('scale-out: two app instances and a worker-only instance', () => {
  let t: TestApp;
  let peer: NestFastifyApplication;
  let workerOnly: NestFastifyApplication;
  let peerBaseUrl: string;
  let receiver: WebhookReceiver;
  let org: CallsOrg;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    const env = { WEBHOOK_ALLOW_INSECURE: 'true' };
    t = await startTestApp({ env });
    const second = await t.startPeer(env);
    peer = second.app;
    peerBaseUrl = second.baseUrl;
    workerOnly = (await t.startPeer({ ...env, ROLES: 'worker' })).app;
    org = await callingOrg(t, 10_000);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it(`settles and announces ${CALLS} calls created on both APIs exactly once`, async () => {
    const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/calls`, events: CALL_EVENTS });
    expect(hook.status).toBe(201);
    const endpointId: string = hook.body.data.id;

    const second = new HttpClient(peerBaseUrl, { 'x-api-key': org.key });
    // Every simulator outcome (last digit 0-9): answered, voicemail, not answered and pipeline error.
    const body = (i: number) => ({ to: `+1415557${String(i).padStart(3, '0')}${i % 10}`, from: org.from });
    const created = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => (i % 2 ? second : org.api).post('/api/v1/calls', body(i))),
    );
    expect(created.filter((r) => r.status !== 201).map((r) => r.text)).toEqual([]);
    const ids = created.map((r) => r.body.data.id as string);
    for (const id of ids) await waitForCall(org, id, finished, 60_000);

    const { rows: calls } = await t.db.query(
      `SELECT c.id, c.status,
              (SELECT count(*)::int FROM outbox_events e WHERE e.data->>'callId' = c.id::text AND e.type = 'call.started') AS started,
              (SELECT count(*)::int FROM outbox_events e
                WHERE e.data->>'callId' = c.id::text AND e.type IN ('call.ended', 'call.failed')) AS terminal,
              (SELECT count(*)::int FROM minute_ledger l WHERE l.call_id = c.id) AS ledger
         FROM calls c WHERE c.id = ANY($1)`,
      [ids],
    );
    expect(calls).toHaveLength(CALLS);
    // Every call was accepted by the platform (a pipeline error, digit 9, comes after), so each was started once
    // even when its end was reported before the dispatcher recorded the platform id.
    for (const call of calls) expect(call).toMatchObject({ started: 1, terminal: 1, ledger: 1 });
    expect(calls.filter((c) => c.status === 'error')).toHaveLength(CALLS / 10);

    // Every event of the organization reaches the receiver once per event: the X-Webhook-Id of each recorded
    // event (derived from event and endpoint) is exactly the set received; retries would repeat ids, never add.
    const { rows: events } = await t.db.query(
      `SELECT event_id FROM outbox_events WHERE organization_id = $1 AND type = ANY($2)`,
      [org.id, CALL_EVENTS],
    );
    const announced = CALLS * 2;
    expect(events).toHaveLength(announced);
    const expected = new Set(events.map((e) => webhookId(e.event_id, endpointId)));
    const delivered = () => new Set(receiver.on('/calls').map((r) => r.headers['x-webhook-id'] as string));
    await receiver.waitFor(() => delivered().size >= expected.size, 60_000, 'every call event');
    expect(delivered()).toEqual(expected);
    const { rows: log } = await t.db.query(
      'SELECT count(*)::int AS n, count(DISTINCT webhook_id)::int AS ids FROM webhook_deliveries WHERE endpoint_id = $1 AND success',
      [endpointId],
    );
    expect(log[0]).toEqual({ n: announced, ids: announced });
  }, 120_000);

  it('renews a due subscription once however many ticks race on three processes', async () => {
    const subscriber = await createOrg(t);
    const periodEnd = new Date(Date.now() - 60_000);
    const periodStart = addMonths(periodEnd, -1);
    const sub = await t.admin.post(`/admin/v1/organizations/${subscriber.id}/subscriptions`, {
      productType: 'outreach',
      tier: 1,
      periodStart: periodStart.toISOString(),
      periodEnd: periodEnd.toISOString(),
    });
    expect(sub.status).toBe(201);

    // Worst case for the cron: ticks run concurrently in every process, directly and as queued jobs that any of
    // the three workers may take (the scheduler itself adds one per interval cluster-wide, checked below).
    const jobs = t.app.get(JobQueue);
    const queued = await Promise.all(
      Array.from({ length: 6 }, (_, i) => jobs.add(JobName.RenewSubscriptions, {}, { jobId: `race-${i}` })),
    );
    const direct = [t.app, peer, workerOnly, t.app, peer, workerOnly].map((app) =>
      app.get(SubscriptionLifecycleService).runDue(),
    );
    const results = await Promise.all(direct);
    const deadline = Date.now() + 30_000;
    const maintenance = jobs.queue(QueueName.Maintenance);
    for (const job of queued) {
      while ((await maintenance.getJobState(job.id!)) !== 'completed') {
        if (Date.now() > deadline) throw new Error(`renewal tick ${job.id} did not complete`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const queuedRenewed = await Promise.all(queued.map(async (j) => (await maintenance.getJob(j.id!))!.returnvalue));
    const renewed = [...results, ...queuedRenewed].reduce((n, r) => n + r.renewed, 0);
    expect(renewed).toBe(1);

    const { rows: ledger } = await t.db.query(
      `SELECT amount_mins FROM minute_ledger WHERE organization_id = $1 AND type = 'monthly_renewal' ORDER BY id`,
      [subscriber.id],
    );
    // The grant at creation, the unspent minutes expiring at the boundary, the next period's grant: no more.
    expect(ledger.map((r) => r.amount_mins)).toEqual([100, -100, 100]);
    const { rows: subs } = await t.db.query('SELECT current_period_end FROM subscriptions WHERE organization_id = $1', [
      subscriber.id,
    ]);
    expect(subs[0].current_period_end.toISOString()).toBe(addMonths(periodEnd, 1).toISOString());
  });

  it('runs each scheduled job once per interval cluster-wide, although two processes hold the scheduler role', async () => {
    const jobs = t.app.get(JobQueue);
    const dispatch = jobs.queue(QueueName.CallDispatch);
    const schedulers = await dispatch.getJobSchedulers();
    expect(schedulers.filter((s) => s.name === JobName.SweepCalls)).toHaveLength(1);
    const maintenance = await jobs.queue(QueueName.Maintenance).getJobSchedulers();
    expect(maintenance.filter((s) => s.name === JobName.RenewSubscriptions)).toHaveLength(1);

    // The sweep ticks every SWEEP_EVERY_MS; by now (the calls test ran for several intervals) the completed
    // ticks must be spaced one interval apart: two schedulers each adding their own tick would show pairs.
    let ticks: number[] = [];
    const deadline = Date.now() + 3 * SWEEP_EVERY_MS;
    while (Date.now() < deadline) {
      const done = await dispatch.getJobs(['completed'], 0, 200);
      ticks = done
        .filter((j) => j.name === JobName.SweepCalls)
        .map((j) => j.timestamp + (j.opts.delay ?? 0))
        .sort((a, b) => a - b);
      if (ticks.length >= 3) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    const gaps = ticks.slice(1).map((at, i) => at - ticks[i]);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(SWEEP_EVERY_MS - 100);
  });

  it('a scheduler replica starting between two ticks leaves the schedule as it was (no tick of its own)', async () => {
    const dispatch = t.app.get(JobQueue).queue(QueueName.CallDispatch);
    // When each sweep tick was due (ticks of one schedule are whole intervals apart) and when it was created.
    const ticks = async () =>
      (await dispatch.getJobs(['completed', 'active', 'waiting', 'delayed', 'prioritized'], 0, 1000))
        .filter((j) => j.name === JobName.SweepCalls)
        .map((j) => ({ due: j.timestamp + (j.opts.delay ?? 0), created: j.timestamp }));
    const lateStart = Date.now();
    await t.startPeer({ WEBHOOK_ALLOW_INSECURE: 'true', ROLES: 'scheduler' });
    // Upserting the scheduler again would add a tick at once, anchored at the replica's start; otherwise the
    // next tick made after this point is the schedule's own.
    const deadline = Date.now() + 4 * SWEEP_EVERY_MS;
    while (!(await ticks()).some((tick) => tick.created >= lateStart)) {
      if (Date.now() > deadline) throw new Error('no sweep tick was scheduled after the replica started');
      await new Promise((r) => setTimeout(r, 200));
    }
    const all = await ticks();
    const anchor = all[0].due;
    // Whole intervals apart, give or take the few milliseconds of BullMQ's own arithmetic.
    const offBy = all.map(({ due }) => {
      const rest = (((due - anchor) % SWEEP_EVERY_MS) + SWEEP_EVERY_MS) % SWEEP_EVERY_MS;
      return Math.min(rest, SWEEP_EVERY_MS - rest);
    });
    for (const off of offBy) expect(off).toBeLessThan(100);
  });
});
