import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JobQueue } from '../queue/job-queue';
import { QueueName } from '../queue/queue-names';

/** Outcomes of one webhook delivery attempt (the job), as counted by `vc_webhook_deliveries_total`. */
/** `deferred`: the attempt waits for its organization's or endpoint's slot (it runs later under the same id). */
export type WebhookDeliveryOutcome = 'delivered' | 'retry_scheduled' | 'failed' | 'cancelled' | 'deferred';

/** Results of reserving a call's minute at dispatch, as counted by `vc_ledger_reservations_total`. */
export type LedgerReservationResult = 'reserved' | 'outbound_minutes_exhausted' | 'outbound_plan_required';

/**
 * Process metrics (memory, CPU, event-loop lag, GC) describe the process, not an application instance: collected
 * once per process, whatever the number of instances in it (their observers can never be stopped).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Every Prometheus metric the service exports, on a registry of its own (not prom-client's global one), so
 * several application instances in one process (the tests' peers) never share or collide on metrics.
 */
@Injectable()
export class Metrics {
  /** This instance's own metrics; `exposition()` adds the process metrics. */
  readonly registry = new Registry();

  /** By route template (`/api/v1/contacts/:id`), never the raw URL, so ids do not explode the label set. */
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'vc_job_duration_seconds',
    help: 'Time a worker spent running a job, by queue, job name and outcome',
    labelNames: ['queue', 'job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly dispatchLatency = new Histogram({
    name: 'vc_call_dispatch_latency_seconds',
    help: 'Time from a call being due (scheduledAt, else createdAt) to it being marked processing',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'vc_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry_scheduled, failed = last retry spent, cancelled)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly ledgerReservations = new Counter({
    name: 'vc_ledger_reservations_total',
    help: 'Minute reservations attempted at call dispatch, by result',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly voicePlatformDeferred = new Counter({
    name: 'vc_voice_platform_deferred_total',
    help: 'Outbound calls the voice platform could not take yet (its account concurrency pool was full), put back to wait',
    registers: [this.registry],
  });

  readonly platformPlacements = new Counter({
    name: 'vc_platform_placements_total',
    help: 'Outbound call placements by voice platform and outcome (placed, deferred, rejected, unavailable, skipped)',
    labelNames: ['platform', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly platformFailovers = new Counter({
    name: 'vc_platform_failovers_total',
    help: "Calls placed on their number's fallback platform, by the platform they left and the one they went to",
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });

  readonly voiceReportsRecovered = new Counter({
    name: 'vc_voice_reports_recovered_total',
    help: 'Ended calls whose end-of-call report did not arrive in time, finished from the platform (GET the call), by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly voiceMessagesRefused = new Counter({
    name: 'vc_voice_messages_refused_total',
    help: 'Voice platform server messages refused as unauthenticated (401), by the scheme they presented',
    labelNames: ['scheme'] as const,
    registers: [this.registry],
  });

  /** GET requests whose reads the replica served (DATABASE_READ_URL; docs/operations.md, "Read replicas"). */
  readonly replicaReads = new Counter({
    name: 'vc_db_replica_reads_total',
    help: 'API GET requests whose reads went to the read replica',
    registers: [this.registry],
  });

  readonly replicaFallbacks = new Counter({
    name: 'vc_db_replica_fallbacks_total',
    help:
      'API GET requests (or, for query_failed, statements) read from the primary although a replica is configured, ' +
      'by reason: read_after_write, lagging, unavailable, query_failed',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly replicaLag = new Gauge({
    name: 'vc_db_replica_lag_seconds',
    help: 'Replay lag of the read replica at the last check (-1: it did not answer)',
    registers: [this.registry],
  });

  constructor(jobs: JobQueue) {
    // Read on scrape rather than tracked: the queue store is the truth, and every process sees the same counts.
    new Gauge({
      name: 'vc_queue_jobs',
      help: 'Jobs per queue and state (waiting, active, delayed, failed, ...), read from the queue store on scrape',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        await Promise.all(
          Object.values(QueueName).map(async (queue) => {
            const counts = await jobs.queue(queue).getJobCounts();
            for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
          }),
        );
      },
    });
  }

  /** The Prometheus text exposition: this instance's metrics and the process's. */
  exposition(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  webhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }

  ledgerReservation(result: LedgerReservationResult): void {
    this.ledgerReservations.inc({ result });
  }
}
