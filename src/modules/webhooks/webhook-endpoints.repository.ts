import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { World, worldWhere } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import type { SigningSecret } from '../../common/outbound-http/signature';
import { Tx } from '../../infra/database/tx';
import { SigningSecrets } from '../../infra/secrets/signing-secrets';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/**
 * What an attempt needs of its endpoint, read when it is sent (a rotated secret applies to pending retries); the
 * secret opened (it is sealed in the row), or the signing key built from it.
 */
export interface EndpointForSend {
  url: string;
  secret: SigningSecret;
  events: string[];
  is_active: boolean;
  consecutive_failures: number;
  livemode: boolean;
}

/**
 * The SQL of `webhook_endpoints`: the API's reads and writes of one world's endpoints, the fan-out's subscription
 * read, the delivery's reads and failure counting, the recover rate limit. Counters and slots are conditional
 * statements, so concurrent workers and API processes decide them in the database.
 */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly secrets: SigningSecrets,
  ) {}

  /** The world's endpoints, newest first. */
  list(world: World): Promise<WebhookEndpoint[]> {
    return this.endpoints.find({ where: worldWhere(world), order: { createdAt: 'DESC', id: 'DESC' } });
  }

  find(world: World, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOne({ where: { id, ...worldWhere(world) } });
  }

  /** The endpoint's secret only, or null when it is not the world's. */
  async findSecret(world: World, id: string): Promise<string | null> {
    const endpoint = await this.endpoints.findOne({
      where: { id, ...worldWhere(world) },
      select: { id: true, secret: true },
    });
    return endpoint ? this.secrets.open(endpoint.secret) : null;
  }

  /** In the transaction that checked the organization's cap. */
  insert(
    tx: Tx,
    world: World,
    values: Pick<WebhookEndpoint, 'url' | 'events' | 'secret' | 'description'>,
  ): Promise<WebhookEndpoint> {
    const sealed = { ...values, secret: this.secrets.seal(values.secret) };
    return tx.save(tx.create(WebhookEndpoint, { id: uuidv7(), ...worldWhere(world), ...sealed }));
  }

  /** Whether the world had the endpoint. */
  async update(world: World, id: string, changes: Partial<WebhookEndpoint>): Promise<boolean> {
    const stored = changes.secret === undefined ? changes : { ...changes, secret: this.secrets.seal(changes.secret) };
    const result = await this.endpoints.update({ id, ...worldWhere(world) }, stored);
    return !!result.affected;
  }

  /** Whether the world had the endpoint. */
  async delete(world: World, id: string): Promise<boolean> {
    const result = await this.endpoints.delete({ id, ...worldWhere(world) });
    return !!result.affected;
  }

  /**
   * For each event, the active endpoints subscribed to its type, of its organization and its world: a test event
   * never reaches a live endpoint, nor the reverse. The world is read from the event's row (queues carry
   * references). One round trip for the events a fan-out has in hand at once.
   */
  async subscribedIds(
    events: ReadonlyArray<{ organizationId: string; eventId: string; type: string }>,
  ): Promise<string[][]> {
    const rows: Array<{ n: string; id: string }> = await this.dataSource.query(
      `SELECT i.n, w.id
         FROM unnest($1::uuid[], $2::uuid[], $3::text[]) WITH ORDINALITY AS i(organization_id, event_id, type, n)
         JOIN outbox_events e ON e.event_id = i.event_id
         JOIN webhook_endpoints w
           ON w.organization_id = i.organization_id AND w.livemode = e.livemode AND w.is_active AND i.type = ANY(w.events)
        ORDER BY i.n, w.id`,
      [events.map((e) => e.organizationId), events.map((e) => e.eventId), events.map((e) => e.type)],
    );
    const ids = events.map((): string[] => []);
    for (const row of rows) ids[Number(row.n) - 1].push(row.id);
    return ids;
  }

  async findForSend(organizationId: string, id: string): Promise<EndpointForSend | undefined> {
    const [endpoint]: Array<EndpointForSend & { secret: string }> = await this.dataSource.query(
      `SELECT url, secret, events, is_active, consecutive_failures, livemode
         FROM webhook_endpoints WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return endpoint && { ...endpoint, secret: this.secrets.open(endpoint.secret) };
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
