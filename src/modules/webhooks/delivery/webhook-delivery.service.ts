import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { KeyedBatcher } from '../../../common/concurrency/keyed-batcher';
import { SingleFlight } from '../../../common/concurrency/single-flight';
import { uuidv7 } from '../../../common/ids/uuid-v7';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { Metrics } from '../../../infra/metrics/metrics';
import { JobQueue } from '../../../infra/queue/job-queue';
import { JobName } from '../../../infra/queue/queue-names';
import { OutboundUrlPolicy } from '../../../common/url-safety/outbound-url-policy';
import { OutboundHttpClient, OutboundResult } from '../../../common/outbound-http/outbound-http.client';
import {
  ATTEMPTS_IN_FLIGHT,
  WebhookDeliveryJobData,
  deliveryJobOptions,
  retryDelay,
  webhookId,
} from './webhook-delivery-job-data';
import { EndpointForSend, WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { LoggedAttempt, WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { ReleaseSlot, WebhookDeliverySlots } from './webhook-delivery-slots';
import { EventBodies } from '../../outbox/event-bodies';
import type { EventPayloads } from '../../outbox/event-payloads';
import type { RecordedEventRow } from '../../outbox/outbox-events.repository';
import { AttemptKey, AttemptRows, WebhookAttemptsRepository } from './webhook-attempts.repository';

/** Failed deliveries in a row (each with all its retries spent) that disable an endpoint (docs/contracts/conventions.md, "Webhooks"). */
export const DISABLE_AFTER_FAILURES = 10;
/** What the log keeps of a receiver's answer: enough to tell an operator why it said no. */
const RESPONSE_EXCERPT_BYTES = 2048;

export interface EventForSend {
  data: Record<string, unknown>;
  occurred_at: Date;
  /** The event's world: the envelope's top-level `livemode`, whatever the event type. */
  livemode: boolean;
}

interface SentAttempt {
  endpoint: EndpointForSend;
  id: string;
  result: OutboundResult;
  /** Gives the endpoint's slot back, with the attempt's log line. */
  release: ReleaseSlot;
}

/**
 * Sends one attempt and decides what follows. The endpoint (URL, secret, state) is read at send time, so a
 * rotated secret signs pending retries and a deleted or disabled endpoint stops them. A failed attempt with
 * retries left enqueues the next one as a delayed job with its own fixed id (durable across restarts); the last
 * failed attempt counts one failed delivery against the endpoint.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  /**
   * Never destroyed on shutdown: the workers finish in-flight deliveries after module destroy hooks run, and
   * idle keep-alive sockets are unref'd by Node, so they do not hold the process open.
   */
  private readonly http: OutboundHttpClient;
  /**
   * The attempts' reads (endpoint, event, log), grouped: those that come while one read runs go in the next. Under
   * the mixed workload one read per attempt, waiting for a pool connection and for a loaded PostgreSQL, was the
   * longest step an attempt took while holding its organization's unit (BENCHMARKS.md).
   */
  private readonly reads = new KeyedBatcher<AttemptKey, AttemptRows>(
    (_, keys) => this.attempts.read(keys),
    ATTEMPTS_IN_FLIGHT,
  );
  /** An event going to several endpoints at once is rendered once for them (from the same rows, at the same time). */
  private readonly renders = new SingleFlight<Record<string, unknown> | null>();

  constructor(
    private readonly logRows: WebhookDeliveryLogRepository,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly slots: WebhookDeliverySlots,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly bodies: EventBodies,
    private readonly attempts: WebhookAttemptsRepository,
  ) {
    // An organization's sockets to one host never exceed its attempts in flight in this worker.
    this.http = new OutboundHttpClient({
      name: 'webhooks',
      socketsPerTenant: config.webhookOrganizationConcurrency,
      policy: OutboundUrlPolicy.fromConfig(config),
    });
  }

  async deliver(job: WebhookDeliveryJobData, queued?: Pick<Job, 'attemptsMade' | 'timestamp' | 'opts'>): Promise<void> {
    // This worker's share for the organization first: a tenant over it is deferred before any I/O is spent on it.
    // Its place in line: when the attempt became due (a deferral keeps the job's timestamp; a first attempt
    // deferred by its event's job carries its event's time).
    const since = job.dueAt ?? (queued ? queued.timestamp + (queued.opts.delay ?? 0) : Date.now());
    const releaseOrganization = this.slots.takeOrganization(job, since);
    let sent: SentAttempt | null;
    try {
      // A job's own infrastructure retry re-sends as before; a first run of an attempt the log already holds is
      // a duplicate job (finished attempts leave the queue, so their ids no longer deduplicate).
      sent = await this.attempt(job, !queued?.attemptsMade, releaseOrganization);
    } finally {
      releaseOrganization();
    }
    if (!sent) {
      this.metrics.webhookDelivery('cancelled');
      return;
    }
    const { endpoint, id, result, release } = sent;
    await this.record(job, id, result, release);

    if (!result.error) {
      this.metrics.webhookDelivery('delivered');
      // Most endpoints are healthy: skip the write when there is nothing to reset (a concurrent failure that
      // lands after our read is reset by the next success).
      if (endpoint.consecutive_failures === 0) return;
      await this.endpoints.resetFailures(job.endpointId);
      return;
    }
    const retries = this.config.webhookRetryDelaysMs;
    if (job.attempt <= retries.length) {
      const { dueAt: _firstDue, ...attempt } = job;
      const next: WebhookDeliveryJobData = { ...attempt, attempt: job.attempt + 1 };
      await this.jobs.add(JobName.DeliverWebhook, next, deliveryJobOptions(next, retryDelay(retries, job.attempt)));
      this.metrics.webhookDelivery('retry_scheduled');
      return;
    }
    this.metrics.webhookDelivery('failed');
    await this.countFailedDelivery(job.endpointId);
  }

  /**
   * Sends the attempt under its endpoint's slot; null when the delivery is cancelled, or when `unlessLogged` and
   * the delivery log already holds this attempt or a later one. `releaseOrganization` is called as soon as the
   * HTTP exchange ends; the slot is given back by the caller with the attempt's log line (one statement for both),
   * or here when the exchange throws.
   */
  private async attempt(
    job: WebhookDeliveryJobData,
    unlessLogged: boolean,
    releaseOrganization: () => void,
  ): Promise<SentAttempt | null> {
    const id = webhookId(job.eventId, job.endpointId);
    // The endpoint and the event are read before the endpoint's slot is claimed, and the body rendered while it
    // is, so the slot is held around the HTTP exchange alone (measured under the mixed workload, BENCHMARKS.md:
    // the reads and the wake-up of the next waiter were three quarters of the time a slot was held, the POST a
    // quarter).
    // An attempt deferred for want of a slot has spent those reads; the wake-up brings it back when one frees.
    // The organization's unit is taken before all this (no I/O for a tenant over its share, and its attempts
    // start in the order they became due) and given back as soon as the exchange ends.
    const { endpoint, event: row } = await this.reads.submit('', {
      eventId: job.eventId,
      endpointId: job.endpointId,
      organizationId: job.organizationId,
      webhookId: id,
      attempt: job.attempt,
      unlessLogged,
    });
    // Deleted, disabled or unsubscribed since the event, or the event pruned: the delivery is cancelled.
    if (!endpoint || !endpoint.is_active || !endpoint.events.includes(job.type)) return null;
    if (!row || row.logged) return null;
    // The fan-out already matched worlds; a job made any other way never crosses them either.
    if (row.livemode !== endpoint.livemode) return null;
    // The body is rendered while the slot is claimed (two round trips at once instead of one after the other); a
    // deferred claim drops the body, and a slot claimed for a body that is not sent is given back at once.
    const [rendered, claimed] = await Promise.allSettled([this.event(row), this.slots.claimEndpoint(job)]);
    if (claimed.status === 'rejected') throw claimed.reason;
    // Deleted between the read and the claim: cancelled too.
    const release = claimed.value;
    if (!release) return null;
    if (rendered.status === 'rejected' || !rendered.value) {
      await release();
      if (rendered.status === 'rejected') throw rendered.reason;
      return null;
    }
    const event = rendered.value;
    let result: OutboundResult;
    try {
      result = await this.send(endpoint, job, event, id);
    } catch (error) {
      releaseOrganization();
      await release();
      throw error;
    }
    releaseOrganization();
    return { endpoint, id, result, release };
  }

  /**
   * The body is rendered at send time from the event's payload and the current rows (EventBodies), not carried
   * by the job (docs/contracts/bounds.md); call events go out without their transcript (docs/contracts/conventions.md). An event
   * pruned from the outbox (kept 7 days, far past the retry schedule), or whose rows are gone, is not sent.
   */
  private async event(row: RecordedEventRow): Promise<EventForSend | undefined> {
    const { occurred_at, livemode } = row;
    const world = { organizationId: row.organization_id, livemode };
    const data = await this.renders.run(row.event_id, async () => {
      const body = await this.bodies.render(row.type, world, row.data as EventPayloads[typeof row.type]);
      return body ?? null;
    });
    return data ? { data, occurred_at, livemode } : undefined;
  }

  /**
   * One attempt now, outside the queue and its retry schedule (the test ping, whose event lives in no outbox):
   * the same signing, client and delivery log as queued attempts, whatever the endpoint's state. Null when the
   * endpoint is gone.
   */
  async sendNow(job: WebhookDeliveryJobData, event: EventForSend): Promise<OutboundResult | null> {
    const endpoint = await this.endpoint(job);
    if (!endpoint) return null;
    const id = webhookId(job.eventId, job.endpointId);
    const result = await this.send(endpoint, job, event, id);
    await this.record(job, id, result);
    return result;
  }

  private endpoint(job: WebhookDeliveryJobData): Promise<EndpointForSend | undefined> {
    return this.endpoints.findForSend(job.organizationId, job.endpointId);
  }

  private send(
    endpoint: EndpointForSend,
    job: WebhookDeliveryJobData,
    event: EventForSend,
    id: string,
  ): Promise<OutboundResult> {
    const body = JSON.stringify({
      event: job.type,
      timestamp: event.occurred_at.toISOString(),
      livemode: event.livemode,
      data: event.data,
    });
    // Signed now, with the current secret, over exactly these bytes (docs/contracts/conventions.md).
    return this.http.post({
      url: endpoint.url,
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'voice-calling-webhooks/1' },
      signing: { id, secret: endpoint.secret },
      timeoutMs: this.config.webhookTimeoutMs,
      tenant: job.organizationId,
      keepBytes: RESPONSE_EXCERPT_BYTES,
    });
  }

  /**
   * Logs the attempt: with its slot's release when it held one (the log's INSERT in the release's statement, a
   * round trip fewer per batch of attempts, BENCHMARKS.md), else alone (the test ping).
   */
  private async record(
    job: WebhookDeliveryJobData,
    id: string,
    result: OutboundResult,
    release?: ReleaseSlot,
  ): Promise<void> {
    const logged: LoggedAttempt = {
      id: uuidv7(),
      organizationId: job.organizationId,
      endpointId: job.endpointId,
      eventId: job.eventId,
      eventType: job.type,
      webhookId: id,
      attempt: job.attempt,
      success: !result.error,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      responseExcerpt: result.body,
      error: result.error,
    };
    await (release ? release(logged) : this.logRows.insert([logged]));
    if (result.error) {
      this.logger.debug(
        { endpointId: job.endpointId, webhookId: id, attempt: job.attempt, error: result.error },
        'Webhook attempt failed',
      );
    }
  }

  /** One atomic increment decides the 10th failure, however many workers finish deliveries at once. */
  private async countFailedDelivery(endpointId: string): Promise<void> {
    const row = await this.endpoints.countFailure(endpointId, DISABLE_AFTER_FAILURES);
    if (row && !row.is_active && row.consecutive_failures === DISABLE_AFTER_FAILURES) {
      this.logger.warn({ endpointId }, `Webhook endpoint disabled after ${DISABLE_AFTER_FAILURES} failed deliveries`);
    }
  }
}
