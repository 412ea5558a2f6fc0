import { Inject, Injectable } from '@nestjs/common';
import { World } from '../../../common/auth/world';
import { ApiError } from '../../../common/errors/api-error';
import { isUuid } from '../../../common/ids/id-param.pipe';
import { uuidv7 } from '../../../common/ids/uuid-v7';
import { Page } from '../../../common/pagination/pagination.dto';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { JobQueue } from '../../../infra/queue/job-queue';
import { JobName } from '../../../infra/queue/queue-names';
import { OutboxEventsRepository } from '../../outbox/outbox-events.repository';
import { RETENTION_DAYS as EVENT_RETENTION_DAYS } from '../../outbox/outbox-pruner.job';
import { WEBHOOK_TEST_EVENT } from '../webhook-test-event';
import { WebhookDeliveryJobData, deliveryJobOptions, webhookId } from '../delivery/webhook-delivery-job-data';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { ListDeliveriesQueryDto } from '../dto/list-deliveries-query.dto';
import { ActionBudget } from '../../../common/rate-limit/action-budget';
import { WebhookEndpoint } from '../webhook-endpoint.entity';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { WebhooksService } from '../webhooks.service';
import { DeliveryScope, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDeliveryResponse, WebhookRecoverResponse, WebhookRetryResponse } from './webhook-delivery.response';

/** At most this many deliveries per POST /recover; the answer says where the next batch starts. */
export const RECOVER_BATCH = 500;
/** One POST /recover per endpoint per this many seconds (429 with Retry-After otherwise). */
export const RECOVER_INTERVAL_SECONDS = 60;
/**
 * Sends an operator triggers by hand on one endpoint (test pings and single re-sends together) per minute, across
 * every instance: enough to debug a receiver, too few to use our servers to flood someone else's.
 */
export const MANUAL_SENDS_PER_MINUTE = 10;
/** The re-sends of one recover are spread at this pace (10 a second), so a backlog never lands all at once. */
export const RECOVER_SPACING_MS = 100;

interface Resend {
  eventId: string;
  attempt: number;
}

/** Why a test ping has no re-send: it carries no event of ours to deliver again, and a new ping tests as well. */
const TEST_PING_NOT_RESENT =
  'A test ping is not re-sent: it is not an event to deliver again. Send a new test ping instead.';

/**
 * What an operator does with an endpoint's deliveries: read them, re-send one or a failed backlog, ping it.
 * Re-sends are ordinary queued attempts of the same (event, endpoint), so they carry the same `X-Webhook-Id`
 * and are signed with the endpoint's secret at send time, like any retry.
 */
@Injectable()
export class WebhookOperationsService {
  constructor(
    private readonly outboxEvents: OutboxEventsRepository,
    private readonly webhooks: WebhooksService,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly sender: WebhookDeliveryService,
    private readonly jobs: JobQueue,
    private readonly budget: ActionBudget,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(world: World, endpointId: string, query: ListDeliveriesQueryDto): Promise<Page<WebhookDeliveryResponse>> {
    const scope = this.scope(await this.webhooks.get(world, endpointId));
    return this.deliveries.page(scope, query);
  }

  async get(world: World, endpointId: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
    const scope = this.scope(await this.webhooks.get(world, endpointId));
    return this.found(await this.find(scope, deliveryId));
  }

  async retry(world: World, endpointId: string, deliveryId: string): Promise<WebhookRetryResponse> {
    const endpoint = await this.webhooks.get(world, endpointId);
    const delivery = this.found(await this.find(this.scope(endpoint), deliveryId));
    if (delivery.event === WEBHOOK_TEST_EVENT) {
      throw new ApiError('INVALID_STATE', TEST_PING_NOT_RESENT);
    }
    if (delivery.status === 'pending') {
      throw ApiError.conflict('An automatic retry of this delivery is already scheduled');
    }
    assertSendable(endpoint, delivery.event);
    await this.spendManualSend(endpoint);
    const attempt = Math.max(...delivery.attempts.map((a) => a.attempt)) + 1;
    const queued = await this.resend(endpoint, [{ eventId: delivery.eventId, attempt }], 0);
    if (!queued) {
      throw new ApiError('INVALID_STATE', `The event is older than ${EVENT_RETENTION_DAYS} days and no longer kept`);
    }
    return { deliveryId: delivery.id, attempt };
  }

  async recover(world: World, endpointId: string, sinceIso?: string): Promise<WebhookRecoverResponse> {
    const oldest = Date.now() - EVENT_RETENTION_DAYS * 86_400_000;
    const since = new Date(sinceIso ?? oldest);
    if (since.getTime() < oldest) {
      throw ApiError.validation('since', `since must be within the last ${EVENT_RETENTION_DAYS} days`);
    }
    if (since.getTime() > Date.now()) throw ApiError.validation('since', 'since must not be in the future');
    const endpoint = await this.webhooks.get(world, endpointId);
    assertSendable(endpoint);
    await this.claimRecoverySlot(endpoint);
    const failed = await this.deliveries.failedSince(this.scope(endpoint), since, RECOVER_BATCH + 1);
    const batch = failed.slice(0, RECOVER_BATCH);
    const queued = await this.resend(
      endpoint,
      batch.map((f) => ({ eventId: f.eventId, attempt: f.lastAttempt + 1 })),
      RECOVER_SPACING_MS,
    );
    const hasMore = failed.length > RECOVER_BATCH;
    const last = batch[batch.length - 1];
    return { queued, hasMore, nextSince: hasMore ? new Date(last.createdAt.getTime() + 1).toISOString() : null };
  }

  /** Sends `webhook.test` now, bounded by WEBHOOK_TIMEOUT_MS, and answers with the logged attempt. */
  async test(world: World, endpointId: string): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.webhooks.get(world, endpointId);
    await this.spendManualSend(endpoint);
    const job: WebhookDeliveryJobData = {
      eventId: uuidv7(),
      organizationId: world.organizationId,
      endpointId,
      type: WEBHOOK_TEST_EVENT,
      attempt: 1,
    };
    await this.sender.sendNow(job, {
      occurred_at: new Date(),
      livemode: endpoint.livemode,
      data: { webhookEndpointId: endpointId, message: 'A test event sent with POST /api/v1/webhooks/{id}/test' },
    });
    return this.found(await this.deliveries.find(this.scope(endpoint), webhookId(job.eventId, endpointId)));
  }

  private scope(endpoint: WebhookEndpoint): DeliveryScope {
    return {
      organizationId: endpoint.organizationId,
      endpointId: endpoint.id,
      endpointActive: endpoint.isActive,
      finalAttempt: this.config.webhookRetryDelaysMs.length + 1,
    };
  }

  /** A delivery id that is not a UUID is an unknown delivery of a known endpoint (docs/contracts/bounds.md: 404). */
  private find(scope: DeliveryScope, deliveryId: string): Promise<WebhookDeliveryResponse | null> {
    return isUuid(deliveryId) ? this.deliveries.find(scope, deliveryId.toLowerCase()) : Promise.resolve(null);
  }

  private found(delivery: WebhookDeliveryResponse | null): WebhookDeliveryResponse {
    if (!delivery) throw ApiError.notFound('Webhook delivery');
    return delivery;
  }

  /** Counts one test ping or re-send of the endpoint; 429 with Retry-After past MANUAL_SENDS_PER_MINUTE. */
  private spendManualSend(endpoint: WebhookEndpoint): Promise<void> {
    return this.budget.spend(
      `webhook-manual-sends:${endpoint.id}`,
      MANUAL_SENDS_PER_MINUTE,
      (retryAfter) =>
        `At most ${MANUAL_SENDS_PER_MINUTE} test pings and re-sends per endpoint per minute; try again in ${retryAfter} s`,
    );
  }

  /** One conditional update, so the once-a-minute rule holds across every API process. */
  private async claimRecoverySlot(endpoint: WebhookEndpoint): Promise<void> {
    if (await this.endpoints.claimRecoverySlot(endpoint.id, RECOVER_INTERVAL_SECONDS)) return;
    const waited = endpoint.lastRecoveryAt ? (Date.now() - endpoint.lastRecoveryAt.getTime()) / 1000 : 0;
    const retryAfter = Math.max(1, Math.ceil(RECOVER_INTERVAL_SECONDS - waited));
    throw new ApiError(
      'RATE_LIMITED',
      `One recover per endpoint every ${RECOVER_INTERVAL_SECONDS} seconds; try again in ${retryAfter} s`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** Queues the given attempts through the delivery job's own options (fixed ids), `spacingMs` apart. */
  private async resend(endpoint: WebhookEndpoint, resends: Resend[], spacingMs: number): Promise<number> {
    if (!resends.length) return 0;
    // Only the events still in the outbox can be re-sent; the payload itself is read when each attempt is sent.
    const events = await this.outboxEvents.typesOf(
      endpoint,
      resends.map((r) => r.eventId),
    );
    const byId = new Map(events.map((e) => [e.event_id, e]));
    const items = resends.flatMap(({ eventId, attempt }, i) => {
      const event = byId.get(eventId);
      if (!event) return [];
      const data: WebhookDeliveryJobData = {
        eventId,
        organizationId: endpoint.organizationId,
        endpointId: endpoint.id,
        type: event.type,
        attempt,
      };
      return [{ data, opts: deliveryJobOptions(data, i * spacingMs) }];
    });
    if (items.length) await this.jobs.addBulk(JobName.DeliverWebhook, items);
    return items.length;
  }
}

/** A re-send to a disabled or unsubscribed endpoint would be cancelled by the job; say so now instead. */
function assertSendable(endpoint: WebhookEndpoint, event?: string): void {
  if (!endpoint.isActive) {
    throw new ApiError('INVALID_STATE', 'The endpoint is disabled; re-enable it with PATCH {"isActive": true} first');
  }
  if (event && !endpoint.events.includes(event)) {
    throw new ApiError('INVALID_STATE', `The endpoint is no longer subscribed to ${event}`);
  }
}
