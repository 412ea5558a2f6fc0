import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { World, worldParams, worldSql } from '../../common/auth/world';
import type { Statement } from '../../infra/database/statement';
import type { Tx } from '../../infra/database/tx';
import type { DomainEventType } from './domain-event';
import { OUTBOX_JOB_COLUMNS, OutboxJobRow } from './domain-event-job';

/** The channel a relay LISTENs to; wake-ups are sent on it after the events' commit (outbox-wakeup.ts). */
export const OUTBOX_CHANNEL = 'vc_outbox';

/** One row to insert: its payload is the event type's typed payload (event-payloads.ts), as JSON. */
export interface OutboxInsert {
  event_id: string;
  organization_id: string;
  livemode: boolean;
  type: DomainEventType;
  data: object;
}

/** A recorded event as its readers need it (listeners, the webhook renderer). */
export interface RecordedEventRow {
  event_id: string;
  organization_id: string;
  livemode: boolean;
  type: DomainEventType;
  data: unknown;
  occurred_at: Date;
}

/** A recorded event with the time its fan-out finished (null until then). */
export type ProcessedEventRow = RecordedEventRow & { processed_at: Date | null };

/** The SQL of `outbox_events`. */
@Injectable()
export class OutboxEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The rows, in one round trip. */
  async insertMany(tx: Tx, rows: readonly OutboxInsert[], occurredAt: Date): Promise<void> {
    await tx.query(
      `INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
       SELECT r.event_id, r.organization_id, r.livemode, r.type, r.data, $2
         FROM jsonb_to_recordset($1::jsonb)
           AS r(event_id uuid, organization_id uuid, livemode boolean, type text, data jsonb)`,
      [JSON.stringify(rows), occurredAt],
    );
  }

  /**
   * `change` (a data-modifying statement with RETURNING, its parameters $1 … $n) and the rows, recorded only when
   * the change returned a row: one statement, so atomic without a transaction, and one round trip where BEGIN, the
   * change, the events and COMMIT took four (PostgreSQL runs a data-modifying WITH whether or not the rest reads
   * it). Resolves the change's returned rows.
   */
  insertWithChange<R>(
    change: Statement,
    rows: readonly OutboxInsert[],
    occurredAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<R[]> {
    const n = change.params.length;
    return manager.query(
      `WITH changed AS (${change.sql}),
       inserted AS (
         INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
         SELECT r.event_id, r.organization_id, r.livemode, r.type, r.data, $${n + 2}
           FROM jsonb_to_recordset($${n + 1}::jsonb)
             AS r(event_id uuid, organization_id uuid, livemode boolean, type text, data jsonb)
          WHERE EXISTS (SELECT 1 FROM changed))
       SELECT * FROM changed`,
      [...change.params, JSON.stringify(rows), occurredAt],
    );
  }

  /** The events and when every listener had handled each; a pruned one is absent. */
  findMany(eventIds: readonly string[]): Promise<ProcessedEventRow[]> {
    return this.dataSource.query(
      `SELECT event_id, organization_id, livemode, type, data, occurred_at, processed_at FROM outbox_events
        WHERE event_id = ANY($1::uuid[])`,
      [eventIds],
    );
  }

  /** The types of those of `eventIds` that are the world's events still in the outbox (not pruned). */
  typesOf(world: World, eventIds: readonly string[]): Promise<Array<{ event_id: string; type: DomainEventType }>> {
    return this.dataSource.query(
      `SELECT event_id, type FROM outbox_events WHERE event_id = ANY($1::uuid[]) AND ${worldSql(undefined, 2)}`,
      [eventIds, ...worldParams(world)],
    );
  }

  /** Every listener handled the events: one statement on their unique event ids. */
  async markProcessed(eventIds: readonly string[]): Promise<void> {
    await this.dataSource.query(
      'UPDATE outbox_events SET processed_at = now() WHERE event_id = ANY($1::uuid[]) AND processed_at IS NULL',
      [eventIds],
    );
  }

  /** The oldest unrelayed rows, locked for this relay (others skip them): references only, never the payload. */
  claimUnrelayed(tx: Tx, limit: number): Promise<OutboxJobRow[]> {
    return tx.query(
      `SELECT ${OUTBOX_JOB_COLUMNS} FROM outbox_events
        WHERE relayed_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  /**
   * Rows relayed more than `graceSecs` ago and still unprocessed, that occurred within `lookbackSecs`, locked for
   * this sweep; least recently relayed first.
   */
  claimUnprocessed(tx: Tx, graceSecs: number, lookbackSecs: number, limit: number): Promise<OutboxJobRow[]> {
    return tx.query(
      `SELECT ${OUTBOX_JOB_COLUMNS} FROM outbox_events
        WHERE processed_at IS NULL AND relayed_at < now() - make_interval(secs => $1)
          AND occurred_at > now() - make_interval(secs => $2)
        ORDER BY relayed_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [graceSecs, lookbackSecs, limit],
    );
  }

  async markRelayed(tx: Tx, ids: readonly string[]): Promise<void> {
    await tx.query('UPDATE outbox_events SET relayed_at = now() WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Deletes rows relayed more than `days` ago; returns how many. */
  async pruneRelayedBefore(days: number): Promise<number> {
    const result = await this.dataSource.query(
      `DELETE FROM outbox_events WHERE relayed_at < now() - make_interval(days => $1)`,
      [days],
    );
    return Number(result?.[1] ?? 0);
  }
}
