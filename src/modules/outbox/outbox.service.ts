import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { World } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { DomainEventType } from './domain-event';

export const OUTBOX_CHANNEL = 'vc_outbox';

/**
 * An event to record. `owner` is the world of what it describes (the row itself will do: a call, a contact, a
 * campaign); every event carries it, so the envelope's `livemode` needs nothing from the event type.
 */
export interface PendingEvent {
  owner: World;
  type: DomainEventType;
  data: Record<string, unknown>;
}

@Injectable()
export class OutboxService {
  /**
   * Records an event inside the caller's transaction: it exists if and only if the change commits. The NOTIFY
   * is delivered on commit and wakes the relay at once; the relay's poll is only the safety net.
   */
  async record(
    manager: EntityManager,
    owner: World,
    type: DomainEventType,
    data: Record<string, unknown>,
  ): Promise<string> {
    const [eventId] = await this.recordMany(manager, [{ owner, type, data }]);
    return eventId;
  }

  /** The payload of a recorded event (queues carry only its id); null once the event has been pruned. */
  async payloadOf(manager: EntityManager, eventId: string): Promise<Record<string, unknown> | null> {
    const [row]: Array<{ data: Record<string, unknown> }> = await manager.query(
      `SELECT data FROM outbox_events WHERE event_id = $1`,
      [eventId],
    );
    return row?.data ?? null;
  }

  /** Records several events in one round trip (a batch of dispatches failing together). */
  async recordMany(manager: EntityManager, events: readonly PendingEvent[]): Promise<string[]> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.record must run inside a transaction');
    }
    if (!events.length) return [];
    const occurredAt = new Date();
    const rows = events.map((e) => ({
      event_id: uuidv7(),
      organization_id: e.owner.organizationId,
      livemode: e.owner.livemode,
      type: e.type,
      data: e.data,
    }));
    // One round trip for all: the rows, and the NOTIFY that PostgreSQL delivers when the transaction commits.
    await manager.query(
      `WITH inserted AS (
         INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
         SELECT r.event_id, r.organization_id, r.livemode, r.type, r.data, $2
           FROM jsonb_to_recordset($1::jsonb)
             AS r(event_id uuid, organization_id uuid, livemode boolean, type text, data jsonb)
         RETURNING id)
       SELECT pg_notify('${OUTBOX_CHANNEL}', '') WHERE EXISTS (SELECT 1 FROM inserted)`,
      [JSON.stringify(rows), occurredAt],
    );
    return rows.map((r) => r.event_id);
  }
}
