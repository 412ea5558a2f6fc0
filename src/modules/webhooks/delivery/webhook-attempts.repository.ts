import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isForeignKeyViolation } from '../../../infra/database/pg-errors';
import { SigningSecrets } from '../../../infra/secrets/signing-secrets';
import type { RecordedEventRow } from '../../outbox/outbox-events.repository';
import type { EndpointForSend } from '../webhook-endpoints.repository';
import { EndpointSigningKeys } from './endpoint-signing-keys';
import { ClaimResult, claimOf } from './webhook-delivery-lease.repository';

/** One attempt about to be sent, as its job names it. */
export interface AttemptKey {
  eventId: string;
  endpointId: string;
  organizationId: string;
  webhookId: string;
  /** The attempt's job id: its slot's key. */
  jobId: string;
  type: string;
  attempt: number;
  /** Ask whether the delivery log already holds this attempt or a later one (a duplicate job's first run). */
  unlessLogged: boolean;
}

/** What an attempt reads before it is sent; each part undefined when its row is gone. */
export interface AttemptRows {
  endpoint?: EndpointForSend;
  event?: RecordedEventRow & { logged: boolean };
  /** The endpoint slot's claim, made only for an attempt that is sent (see `sendable`); undefined otherwise. */
  claim?: ClaimResult;
}

/** How many attempts an endpoint runs at once across all workers, and how long a running one holds its slot. */
export interface ClaimTerms {
  limit: number;
  leaseMs: number;
}

interface AttemptRow extends Omit<EndpointForSend, 'secret'>, RecordedEventRow {
  secret: string;
  has_endpoint: boolean;
  endpoint_livemode: boolean;
  logged: boolean;
  running: boolean | null;
}

/**
 * The reads of attempts about to be sent, many at once: each one's endpoint (URL, secret, state, read at send
 * time), its event from the outbox, and whether the delivery log already holds it; and in the same statement the
 * endpoint slots of those that are sent (the claim's SQL is the lease repository's, `claimOf`).
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

  /**
   * One round trip for the batch; the answers in the keys' order. With `terms`, the sendable attempts' slots are
   * claimed in it (one round trip fewer per batch, BENCHMARKS.md). An endpoint deleted while the batch ran fails
   * the claim on its foreign key: the batch is then read alone, its claims left to the caller.
   */
  async read(keys: AttemptKey[], terms?: ClaimTerms): Promise<AttemptRows[]> {
    const rows: AttemptRow[] = await this.query(keys, terms).catch((error: unknown) => {
      if (!terms || !isForeignKeyViolation(error)) throw error;
      return this.query(keys);
    });
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
      claim: row.running === null ? undefined : row.running ? 'running' : 'waiting',
    }));
  }

  private query(keys: AttemptKey[], terms?: ClaimTerms): Promise<AttemptRow[]> {
    // `sendable` is the attempts the caller sends (webhook-delivery.service.ts): the endpoint there, active and
    // subscribed to the type, the event there and in the endpoint's world, the attempt not logged already; a job id
    // twice in the batch (a duplicate job) is claimed once. Without terms it is empty and nothing is claimed.
    return this.dataSource.query(
      `WITH i AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::int[], $6::boolean[], $7::text[],
                              $8::text[])
           WITH ORDINALITY AS i(event_id, endpoint_id, organization_id, webhook_id, attempt, unless_logged, job_id,
                                type, n)),
       r AS (
         SELECT i.n, i.job_id, i.endpoint_id AS asked_endpoint_id, i.type AS asked_type,
                e.id IS NOT NULL AS has_endpoint, e.url, e.secret, e.events, e.is_active, e.consecutive_failures,
                e.livemode AS endpoint_livemode,
                o.event_id, o.organization_id, o.livemode, o.type, o.data, o.occurred_at,
                i.unless_logged AND EXISTS (
                  SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = i.webhook_id AND d.attempt >= i.attempt
                ) AS logged
           FROM i
           LEFT JOIN webhook_endpoints e ON e.id = i.endpoint_id AND e.organization_id = i.organization_id
           LEFT JOIN outbox_events o ON o.event_id = i.event_id),
       sendable AS (
         SELECT DISTINCT ON (job_id) job_id, asked_endpoint_id::text AS endpoint_id, n FROM r
          WHERE $9::boolean AND has_endpoint AND is_active AND asked_type = ANY (events) AND event_id IS NOT NULL
            AND NOT logged AND livemode = endpoint_livemode
          ORDER BY job_id, n),
       claimed AS (${claimOf('sendable', '$10', '$11')})
       SELECT r.*, c.running FROM r LEFT JOIN claimed c ON c.job_id = r.job_id ORDER BY r.n`,
      [
        keys.map((k) => k.eventId),
        keys.map((k) => k.endpointId),
        keys.map((k) => k.organizationId),
        keys.map((k) => k.webhookId),
        keys.map((k) => k.attempt),
        keys.map((k) => k.unlessLogged),
        keys.map((k) => k.jobId),
        keys.map((k) => k.type),
        terms !== undefined,
        terms?.limit ?? 0,
        terms?.leaseMs ?? 0,
      ],
    );
  }
}
