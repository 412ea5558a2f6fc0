import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import { QUEUE_CONCURRENCY, QueueName } from '../../../infra/queue/queue-names';
import { DomainEventType } from '../../outbox/domain-event';
import { WEBHOOK_TEST_EVENT } from '../webhook-test-event';

/** The most attempts a worker has in flight (its delivery queue's concurrency), so the most one batch can hold. */
export const ATTEMPTS_IN_FLIGHT = QUEUE_CONCURRENCY[QueueName.WebhookDeliveries];

/**
 * The data of one DeliverWebhook job: one attempt of one event to one endpoint. References only (about 200
 * bytes): the event's payload is read from the outbox when the attempt is sent, so a large contact costs the
 * queue store nothing per endpoint and retry (docs/contracts/bounds.md).
 */
export interface WebhookDeliveryJobData {
  eventId: string;
  organizationId: string;
  endpointId: string;
  type: DomainEventType | typeof WEBHOOK_TEST_EVENT;
  /** 1 for the first try; retry n is attempt n + 1. */
  attempt: number;
  /**
   * When the attempt became due, for a first attempt its event's job could not run at once (deferred, or failed
   * on our side): its own job is created then, and it keeps its place in its organization's line by this time.
   */
  dueAt?: number;
}

/**
 * The data of one DeliverWebhookEvent job: the first attempts of one event to the endpoints its fan-out found,
 * run side by side by one job (one job per event, not per delivery: a queue job costs three Redis scripts and
 * their round trips, which were the largest part of a burst's Node CPU, BENCHMARKS.md). References only, as above.
 */
export interface WebhookEventDeliveryJobData {
  eventId: string;
  organizationId: string;
  type: WebhookDeliveryJobData['type'];
  endpointIds: string[];
}

/** The first attempts of an event, one per endpoint. */
export function firstAttempts(job: WebhookEventDeliveryJobData): WebhookDeliveryJobData[] {
  const { eventId, organizationId, type } = job;
  return job.endpointIds.map((endpointId) => ({ eventId, organizationId, endpointId, type, attempt: 1 }));
}

/** BullMQ job id of an event's first attempts: fixed by the event, so an event relayed twice enqueues them once. */
export function eventDeliveryJobId(eventId: string): string {
  return `${eventId}.first`;
}

/**
 * BullMQ job id of an attempt. The first attempt's id is fixed by (event, endpoint), so an event relayed twice
 * enqueues one delivery; each retry has its own fixed id for the same reason. (BullMQ forbids ':' in ids.)
 */
export function deliveryJobId(eventId: string, endpointId: string, attempt: number): string {
  const base = `${eventId}.${endpointId}`;
  return attempt === 1 ? base : `${base}.r${attempt - 1}`;
}

/** Infrastructure failures (not receiver failures, which follow the retry schedule) get a few quick retries. */
const INFRASTRUCTURE_RETRIES = { attempts: 5, backoff: { type: 'exponential', delay: 1000 } } as const;
/** The first of those retries' delays: a first attempt that failed on our side inside its event's job waits as long. */
export const INFRASTRUCTURE_RETRY_DELAY_MS = INFRASTRUCTURE_RETRIES.backoff.delay;

/**
 * Queue options of one attempt: its fixed job id, quick infrastructure retries, and a delay for scheduled retries.
 * A finished attempt leaves the queue store at once (~1.4 KB per endpoint and event otherwise, kept a
 * day): what it did is in the delivery log, and an attempt already in the log is never sent again by a duplicate
 * job (a re-relayed event's fan-out, a sweep), so the job id no longer has to be remembered to deduplicate.
 */
export function deliveryJobOptions(
  job: Pick<WebhookDeliveryJobData, 'eventId' | 'endpointId' | 'attempt'>,
  delay?: number,
): JobsOptions {
  return {
    jobId: deliveryJobId(job.eventId, job.endpointId, job.attempt),
    ...(delay ? { delay } : {}),
    ...INFRASTRUCTURE_RETRIES,
    removeOnComplete: true,
  };
}

/** Queue options of an event's first attempts: as one attempt's, under the event's job id. */
export function eventDeliveryJobOptions(eventId: string): JobsOptions {
  return { jobId: eventDeliveryJobId(eventId), ...INFRASTRUCTURE_RETRIES, removeOnComplete: true };
}

/**
 * The `X-Webhook-Id`: a UUID derived from (event, endpoint), so every retry and every redelivery after a crash
 * carries the same value without storing it anywhere first.
 */
export function webhookId(eventId: string, endpointId: string): string {
  const hex = createHash('sha256').update(`${eventId}:${endpointId}`).digest('hex');
  // Shaped as an RFC 9562 version 8 (custom) UUID.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The retry delays, "about" each value: up to 10 % added at random (docs/contracts/conventions.md, "Webhooks"). */
export function retryDelay(delaysMs: readonly number[], retry: number, random = Math.random): number {
  const base = delaysMs[retry - 1];
  return Math.round(base + base * 0.1 * random());
}
