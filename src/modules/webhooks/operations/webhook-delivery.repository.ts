import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, SelectQueryBuilder } from 'typeorm';
import { CursorCodec } from '../../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../../common/pagination/keyset-paginate';
import { Page } from '../../../common/pagination/pagination.dto';
import { WEBHOOK_TEST_EVENT } from '../webhook-test-event';
import { ListDeliveriesQueryDto } from '../dto/list-deliveries-query.dto';
import { WebhookDelivery } from '../webhook-delivery.entity';
import { DeliveryStatus, WebhookAttemptResponse, WebhookDeliveryResponse } from './webhook-delivery.response';

/** Whose deliveries, and what makes one final: the endpoint's state and the last scheduled attempt's number. */
export interface DeliveryScope {
  organizationId: string;
  endpointId: string;
  endpointActive: boolean;
  /** 1 + the number of automatic retries (WEBHOOK_RETRY_DELAYS_MS). */
  finalAttempt: number;
}

export interface FailedDelivery {
  webhookId: string;
  eventId: string;
  lastAttempt: number;
  createdAt: Date;
}

/** A delivery is listed through its first attempt row: that row's (createdAt, id) is its keyset position. */
const FIRST_ATTEMPT = `NOT EXISTS (SELECT 1 FROM webhook_deliveries f WHERE f.webhook_id = d.webhook_id AND f.id < d.id)`;
const DELIVERED = `EXISTS (SELECT 1 FROM webhook_deliveries s WHERE s.webhook_id = d.webhook_id AND s.success)`;
const FINISHED = `(d.event_type = :testEvent OR NOT :active
  OR (SELECT max(s.attempt) FROM webhook_deliveries s WHERE s.webhook_id = d.webhook_id) >= :finalAttempt)`;

/**
 * The read model of the delivery log (`webhook_deliveries`, one row per attempt): deliveries are the attempts
 * sharing one `webhook_id`, their status derived from the attempts, so the hot delivery path writes one row and
 * nothing else.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(
    @InjectRepository(WebhookDelivery) private readonly rows: Repository<WebhookDelivery>,
    private readonly cursors: CursorCodec,
  ) {}

  async page(scope: DeliveryScope, query: ListDeliveriesQueryDto): Promise<Page<WebhookDeliveryResponse>> {
    const qb = this.firstAttempts(scope);
    if (query.event) qb.andWhere('d.eventType = :event', { event: query.event });
    if (query.status === 'delivered') qb.andWhere(DELIVERED);
    if (query.status === 'failed') qb.andWhere(`NOT ${DELIVERED} AND ${FINISHED}`);
    if (query.status === 'pending') qb.andWhere(`NOT ${DELIVERED} AND NOT ${FINISHED}`);
    const firsts = await keysetPaginate(qb, {
      alias: 'd',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.cursors,
      filters: { endpoint: scope.endpointId, status: query.status, event: query.event },
      map: (row: WebhookDelivery) => row,
    });
    return { data: await this.withAttempts(scope, firsts.data), pagination: firsts.pagination };
  }

  async find(scope: DeliveryScope, webhookId: string): Promise<WebhookDeliveryResponse | null> {
    const first = await this.firstAttempts(scope).andWhere('d.webhookId = :webhookId', { webhookId }).getOne();
    if (!first) return null;
    const [delivery] = await this.withAttempts(scope, [first]);
    return delivery;
  }

  /** Failed deliveries of real events first attempted since `since`, oldest first, whose event is still kept. */
  async failedSince(scope: DeliveryScope, since: Date, limit: number): Promise<FailedDelivery[]> {
    const rows: Array<{ webhook_id: string; event_id: string; last_attempt: number; created_at: Date }> =
      await this.rows.query(
        `SELECT d.webhook_id, d.event_id, d.created_at, m.last_attempt
           FROM webhook_deliveries d
           JOIN outbox_events e ON e.event_id = d.event_id
          CROSS JOIN LATERAL (
            SELECT max(s.attempt) AS last_attempt, bool_or(s.success) AS succeeded
              FROM webhook_deliveries s WHERE s.webhook_id = d.webhook_id
          ) m
          WHERE d.endpoint_id = $1 AND d.organization_id = $2 AND d.created_at >= $3
            AND d.event_type <> $4 AND ${FIRST_ATTEMPT}
            AND NOT m.succeeded AND m.last_attempt >= $5
          ORDER BY d.created_at, d.id
          LIMIT $6`,
        [scope.endpointId, scope.organizationId, since, WEBHOOK_TEST_EVENT, scope.finalAttempt, limit],
      );
    return rows.map((r) => ({
      webhookId: r.webhook_id,
      eventId: r.event_id,
      lastAttempt: r.last_attempt,
      createdAt: r.created_at,
    }));
  }

  private firstAttempts(scope: DeliveryScope): SelectQueryBuilder<WebhookDelivery> {
    return this.rows
      .createQueryBuilder('d')
      .where('d.endpointId = :endpointId AND d.organizationId = :organizationId', scope)
      .andWhere(FIRST_ATTEMPT)
      .setParameters({ testEvent: WEBHOOK_TEST_EVENT, active: scope.endpointActive, finalAttempt: scope.finalAttempt });
  }

  private async withAttempts(scope: DeliveryScope, firsts: WebhookDelivery[]): Promise<WebhookDeliveryResponse[]> {
    if (!firsts.length) return [];
    const attempts = await this.rows.find({
      where: { endpointId: scope.endpointId, webhookId: In(firsts.map((f) => f.webhookId)) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return firsts.map((first) => {
      const own = attempts.filter((a) => a.webhookId === first.webhookId);
      return {
        id: first.webhookId,
        webhookEndpointId: first.endpointId,
        eventId: first.eventId,
        event: first.eventType,
        status: statusOf(scope, first.eventType, own),
        attempts: own.map((a) => WebhookAttemptResponse.from(a)),
        createdAt: first.createdAt.toISOString(),
      };
    });
  }
}

/** The same rule as the SQL filters above, applied to loaded attempts. */
function statusOf(scope: DeliveryScope, event: string, attempts: WebhookDelivery[]): DeliveryStatus {
  if (attempts.some((a) => a.success)) return 'delivered';
  const last = Math.max(...attempts.map((a) => a.attempt));
  return event === WEBHOOK_TEST_EVENT || !scope.endpointActive || last >= scope.finalAttempt ? 'failed' : 'pending';
}
