import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isForeignKeyViolation } from '../../../infra/database/pg-errors';
import type { DomainEventType } from '../../outbox/domain-event';
import { WebhookDelivery } from '../webhook-delivery.entity';

/** One attempt as the log keeps it (its time is the row's default). */
export type LoggedAttempt = Omit<WebhookDelivery, 'endpoint' | 'createdAt'>;

/**
 * Logs attempts in one INSERT of arrays, the rows' columns as $1-$12 (logParameters): no entity mapping (TypeORM's
 * insert was most of the Node CPU the log cost per attempt). The slots' release runs it too, in the statement that
 * frees the attempts' slots (WebhookDeliveryLeaseRepository.releaseMany).
 */
export const LOG_INSERT = `
  INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, event_type, webhook_id, attempt,
                                  success, status_code, duration_ms, response_excerpt, error)
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::uuid[], $7::int[],
                       $8::boolean[], $9::int[], $10::int[], $11::text[], $12::text[])`;

/** LOG_INSERT's parameters for `rows`. */
export function logParameters(rows: LoggedAttempt[]): unknown[][] {
  const column = <K extends keyof LoggedAttempt>(key: K) => rows.map((r) => r[key]);
  return [
    column('id'),
    column('organizationId'),
    column('endpointId'),
    column('eventId'),
    column('eventType'),
    column('webhookId'),
    column('attempt'),
    column('success'),
    column('statusCode'),
    column('durationMs'),
    column('responseExcerpt'),
    column('error'),
  ];
}

/** A delivery whose next attempt is overdue, as the sweep finds it. */
export interface OverdueDelivery {
  event_id: string;
  organization_id: string;
  type: DomainEventType;
  endpoint_id: string;
  last_attempt: number | null;
}

/**
 * The delivery engine's SQL of `webhook_deliveries` (one row per attempt): the attempts logged, the log read by
 * the redelivery sweep, and the pruning (the read before an attempt is WebhookAttemptsRepository's). Its reads
 * join the relayed events (`outbox_events`) the attempts are for. The operator's read model is
 * WebhookDeliveryRepository.
 */
@Injectable()
export class WebhookDeliveryLogRepository {
  constructor(@InjectRepository(WebhookDelivery) private readonly log: Repository<WebhookDelivery>) {}

  /**
   * Logs attempts in one statement (LOG_INSERT). When one row's endpoint was deleted while its request was in
   * flight (nothing to log the attempt against), the batch fails on its foreign key and the rows go one by one,
   * skipping that row.
   */
  async insert(rows: LoggedAttempt[]): Promise<void> {
    const skipGone = (err: unknown) => {
      if (!isForeignKeyViolation(err)) throw err;
    };
    await this.insertRows(rows).catch(async (err: unknown) => {
      skipGone(err);
      for (const row of rows.length > 1 ? rows : []) await this.insertRows([row]).catch(skipGone);
    });
  }

  private async insertRows(rows: LoggedAttempt[]): Promise<void> {
    await this.log.query(LOG_INSERT, logParameters(rows));
  }

  /**
   * Deliveries (events relayed between `lookbackSecs` and `graceSecs` ago x active endpoints subscribed when they
   * occurred) not delivered whose next attempt should have run by now: none yet, or a failed attempt whose retry
   * (`delaysMs`, by attempt) is overdue by more than `graceSecs`. At most `limit`, oldest event first.
   */
  overdue(
    lookbackSecs: number,
    graceSecs: number,
    delaysMs: readonly number[],
    limit: number,
  ): Promise<OverdueDelivery[]> {
    return this.log.query(
      `SELECT e.event_id, e.organization_id, e.type, w.id AS endpoint_id, d.last_attempt
         FROM outbox_events e
         JOIN webhook_endpoints w
           ON w.organization_id = e.organization_id AND w.livemode = e.livemode AND w.is_active AND e.type = ANY(w.events)
          AND w.created_at <= e.occurred_at
         LEFT JOIN LATERAL (
           SELECT max(attempt) AS last_attempt, max(created_at) AS last_at, bool_or(success) AS succeeded
             FROM webhook_deliveries x WHERE x.event_id = e.event_id AND x.endpoint_id = w.id
         ) d ON true
        WHERE e.relayed_at > now() - make_interval(secs => $1)
          AND e.relayed_at < now() - make_interval(secs => $2)
          AND NOT coalesce(d.succeeded, false)
          AND (d.last_attempt IS NULL
               OR (d.last_attempt <= cardinality($3::int[])
                   AND d.last_at < now() - make_interval(secs => $2 + ($3::int[])[d.last_attempt] / 1000.0)))
        ORDER BY e.id
        LIMIT $4`,
      [lookbackSecs, graceSecs, delaysMs, limit],
    );
  }

  /** Deletes at most `limit` attempts older than `days` days; how many went. */
  async pruneOlderThan(days: number, limit: number): Promise<number> {
    const result = await this.log.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE created_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    return Number(result?.[1] ?? 0);
  }
}
