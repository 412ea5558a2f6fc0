import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { MetricsServer } from '../../src/infra/metrics/metrics-server';
import { QueueName } from '../../src/infra/queue/queue-names';
import { callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { WebhookReceiver } from '../webhooks/support/receiver';

/** METRICS_PORT=0: the metrics server binds any free port, apart from the API port. */
describe('Prometheus metrics', () => {
  let t: TestApp;
  let metricsUrl: string;
  let receiver: WebhookReceiver;

  const scrape = async (): Promise<string> => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };
  /** The value of one sample line, or undefined when the series does not exist (yet). */
  const sample = (text: string, series: string): number | undefined => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  const eventually = async (series: string, predicate: (v: number | undefined) => boolean): Promise<number> => {
    const deadline = Date.now() + 10_000;
    let value: number | undefined;
    while (Date.now() < deadline) {
      value = sample(await scrape(), series);
      if (predicate(value)) return value!;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${series} stayed at ${value}`);
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      env: { METRICS_PORT: '0', WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '100' },
    });
    metricsUrl = `http://127.0.0.1:${t.app.get(MetricsServer).port}/metrics`;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('is not served on the API port', async () => {
    expect((await t.anonymous.get('/metrics')).status).toBe(404);
  });

  it('exposes a request just made, by route template and status', async () => {
    const org = await createOrg(t);
    const created = await org.api.post('/api/v1/contacts', { title: 'Ada', phone: '+14155550100' });
    expect(created.status).toBe(201);
    const series = 'http_request_duration_seconds_count{method="GET",route="/api/v1/contacts/:id",status="200"}';
    const before = sample(await scrape(), series) ?? 0;
    expect((await org.api.get(`/api/v1/contacts/${created.body.data.id}`)).status).toBe(200);
    const text = await scrape();
    expect(sample(text, series)).toBe(before + 1);
    // The raw URL (with the id) never becomes a label.
    expect(text).not.toContain(created.body.data.id);
    // Unknown URLs share one label value, so scanners cannot grow the series count.
    const unmatched = 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}';
    const unmatchedBefore = sample(text, unmatched) ?? 0;
    await t.anonymous.get('/no/such/route/12345');
    const after = await scrape();
    expect(sample(after, unmatched)).toBe(unmatchedBefore + 1);
    expect(after).not.toContain('12345');
  });

  it('reports queue depth for every queue, read on scrape, and the process metrics', async () => {
    const text = await scrape();
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    for (const queue of Object.values(QueueName)) {
      expect(sample(text, `vc_queue_jobs{queue="${queue}",state="waiting"}`)).toBeGreaterThanOrEqual(0);
      expect(sample(text, `vc_queue_jobs{queue="${queue}",state="failed"}`)).toBeGreaterThanOrEqual(0);
    }
  });

  it('times jobs, dispatch latency and counts ledger reservations when a call is placed', async () => {
    const org = await callingOrg(t, 10);
    const latencyBefore = sample(await scrape(), 'vc_call_dispatch_latency_seconds_count') ?? 0;
    const placed = await org.api.post('/api/v1/calls', { to: '+14155550123', from: org.from, firstMessage: 'Hi' });
    expect(placed.status).toBe(201);
    await waitForCall(org, placed.body.data.id, finished);
    await eventually('vc_call_dispatch_latency_seconds_count', (v) => v === latencyBefore + 1);
    const text = await scrape();
    expect(sample(text, 'vc_ledger_reservations_total{result="reserved"}')).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, `vc_job_duration_seconds_count{queue="call-dispatch",job="dispatch-call",outcome="completed"}`),
    ).toBeGreaterThanOrEqual(1);
    expect(
      // The simulator's timeline steps (a real platform's callbacks are applied inline, on their request).
      sample(text, `vc_job_duration_seconds_count{queue="voice-events",job="play-simulator-step",outcome="completed"}`),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts webhook delivery outcomes: delivered, retry scheduled, failed', async () => {
    const org = await createOrg(t);
    receiver.script('/ok', [200]);
    receiver.script('/down', [500, 500]);
    for (const path of ['/ok', '/down']) {
      const res = await org.api.post('/api/v1/webhooks', {
        url: `${receiver.url}${path}`,
        events: ['contact.created'],
      });
      expect(res.status).toBe(201);
    }
    const series = (outcome: string) => `vc_webhook_deliveries_total{outcome="${outcome}"}`;
    const before = await scrape();
    const count = (text: string, outcome: string) => sample(text, series(outcome)) ?? 0;
    expect((await org.api.post('/api/v1/contacts', { title: 'Grace', phone: '+14155550101' })).status).toBe(201);
    // One retry is configured: /down fails its first attempt (retry scheduled) and its last (failed).
    await eventually(series('failed'), (v) => (v ?? 0) === count(before, 'failed') + 1);
    const after = await scrape();
    expect(count(after, 'delivered')).toBe(count(before, 'delivered') + 1);
    expect(count(after, 'retry_scheduled')).toBe(count(before, 'retry_scheduled') + 1);
  });
});
