import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What an attempt needs of its endpoint, read when it is sent (a rotated secret applies to pending retries). */
export interface EndpointForSend {
  url: string;
  secret: string;
  events: string[];
  is_active: boolean;
  consecutive_failures: number;
  livemode: boolean;
}

/**
 * The SQL of `webhook_endpoints` written outside plain CRUD (WebhooksService keeps create, update, delete): the
 * fan-out's subscription read, the delivery's reads and failure counting, the recover rate limit. Counters and
 * slots are conditional statements, so concurrent workers and API processes decide them in the database.
 */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The active endpoints subscribed to the event's type, of its organization and its world: a test event never
   * reaches a live endpoint, nor the reverse. The world is read from the event's row (queues carry references).
   */
  async subscribedIds(event: { organizationId: string; eventId: string; type: string }): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT w.id FROM webhook_endpoints w JOIN outbox_events e ON e.event_id = $3
        WHERE w.organization_id = $1 AND w.livemode = e.livemode AND w.is_active AND $2 = ANY(w.events)`,
      [event.organizationId, event.type, event.eventId],
    );
    return rows.map((r) => r.id);
  }

  async findForSend(organizationId: string, id: string): Promise<EndpointForSend | undefined> {
    const [endpoint]: EndpointForSend[] = await this.dataSource.query(
      `SELECT url, secret, events, is_active, consecutive_failures, livemode
         FROM webhook_endpoints WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return endpoint;
  }

  /** A success resets the failure count; a write only when there is something to reset. */
  async resetFailures(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0`,
      [id],
    );
  }

  /**
   * One atomic increment of the failure count, which disables the endpoint (once, stamping `disabled_at`) when it
   * reaches `disableAfter`, however many workers finish deliveries at once. Undefined when the endpoint is gone.
   */
  async countFailure(
    id: string,
    disableAfter: number,
  ): Promise<{ consecutive_failures: number; is_active: boolean } | undefined> {
    // An UPDATE answers [rows, affected] through TypeORM.
    const [rows]: [Array<{ consecutive_failures: number; is_active: boolean }>, number] = await this.dataSource.query(
      `UPDATE webhook_endpoints
          SET consecutive_failures = consecutive_failures + 1,
              is_active = CASE WHEN consecutive_failures + 1 >= $2 THEN false ELSE is_active END,
              disabled_at = CASE WHEN is_active AND consecutive_failures + 1 >= $2 THEN now() ELSE disabled_at END
        WHERE id = $1
        RETURNING consecutive_failures, is_active`,
      [id, disableAfter],
    );
    return rows[0];
  }

  /** Takes the endpoint's recover slot if its last recover is at least `intervalSeconds` old; false otherwise. */
  async claimRecoverySlot(id: string, intervalSeconds: number): Promise<boolean> {
    // An UPDATE answers [rows, affected] through TypeORM.
    const [claimed]: [unknown[], number] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET last_recovery_at = now()
        WHERE id = $1 AND (last_recovery_at IS NULL OR last_recovery_at <= now() - make_interval(secs => $2))
        RETURNING id`,
      [id, intervalSeconds],
    );
    return claimed.length > 0;
  }
}
