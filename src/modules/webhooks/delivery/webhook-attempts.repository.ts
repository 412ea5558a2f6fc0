import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SigningSecrets } from '../../../infra/secrets/signing-secrets';
import type { RecordedEventRow } from '../../outbox/outbox-events.repository';
import type { EndpointForSend } from '../webhook-endpoints.repository';
import { EndpointSigningKeys } from './endpoint-signing-keys';

/** One attempt about to be sent, as its job names it. */
export interface AttemptKey {
  eventId: string;
  endpointId: string;
  organizationId: string;
  webhookId: string;
  attempt: number;
  /** Ask whether the delivery log already holds this attempt or a later one (a duplicate job's first run). */
  unlessLogged: boolean;
}

/** What an attempt reads before it is sent; each part undefined when its row is gone. */
export interface AttemptRows {
  endpoint?: EndpointForSend;
  event?: RecordedEventRow & { logged: boolean };
}

interface AttemptRow extends Omit<EndpointForSend, 'secret'>, RecordedEventRow {
  secret: string;
  has_endpoint: boolean;
  endpoint_livemode: boolean;
  logged: boolean;
}

/**
 * The reads of attempts about to be sent, many at once: each one's endpoint (URL, secret, state, read at send
 * time), its event from the outbox, and whether the delivery log already holds it. Reads only: each table's
 * writes stay in its own repository.
 */
@Injectable()
export class WebhookAttemptsRepository {
  /** The endpoint's secret is read with every attempt (a rotation applies at once) but opened once per value. */
  private readonly keys: EndpointSigningKeys;

  constructor(
    private readonly dataSource: DataSource,
    secrets: SigningSecrets,
  ) {
    this.keys = new EndpointSigningKeys(secrets);
  }

  /** One round trip for the batch; the answers in the keys' order. */
  async read(keys: AttemptKey[]): Promise<AttemptRows[]> {
    const rows: AttemptRow[] = await this.dataSource.query(
      `SELECT e.id IS NOT NULL AS has_endpoint, e.url, e.secret, e.events, e.is_active, e.consecutive_failures,
              e.livemode AS endpoint_livemode,
              o.event_id, o.organization_id, o.livemode, o.type, o.data, o.occurred_at,
              i.unless_logged AND EXISTS (
                SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = i.webhook_id AND d.attempt >= i.attempt
              ) AS logged
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::int[], $6::boolean[])
              WITH ORDINALITY AS i(event_id, endpoint_id, organization_id, webhook_id, attempt, unless_logged, n)
         LEFT JOIN webhook_endpoints e ON e.id = i.endpoint_id AND e.organization_id = i.organization_id
         LEFT JOIN outbox_events o ON o.event_id = i.event_id
        ORDER BY i.n`,
      [
        keys.map((k) => k.eventId),
        keys.map((k) => k.endpointId),
        keys.map((k) => k.organizationId),
        keys.map((k) => k.webhookId),
        keys.map((k) => k.attempt),
        keys.map((k) => k.unlessLogged),
      ],
    );
    return rows.map((row, index) => ({
      endpoint: row.has_endpoint
        ? {
            url: row.url,
            secret: this.keys.of(keys[index].endpointId, row.secret),
            events: row.events,
            is_active: row.is_active,
            consecutive_failures: row.consecutive_failures,
            livemode: row.endpoint_livemode,
          }
        : undefined,
      event: row.event_id
        ? {
            event_id: row.event_id,
            organization_id: row.organization_id,
            livemode: row.livemode,
            type: row.type,
            data: row.data,
            occurred_at: row.occurred_at,
            logged: row.logged,
          }
        : undefined,
    }));
  }
}
