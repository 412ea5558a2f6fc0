import { Injectable } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import type { EntityManager } from 'typeorm';
import type { Statement } from '../../infra/database/statement';
import { afterCommit, type Tx } from '../../infra/database/tx';
import type { DomainEventType } from './domain-event';
import type { EventPayloads } from './event-payloads';
import { OutboxEventsRepository, type OutboxInsert } from './outbox-events.repository';
import { OutboxWakeup } from './outbox-wakeup';

/**
 * An event to record, typed by its type's payload. `owner` is the world of what it describes (the row itself
 * will do: a call, a contact, a campaign); every event carries it, so the envelope's `livemode` needs nothing
 * from the event type.
 */
export type PendingEvent<K extends DomainEventType = DomainEventType> = {
  [T in K]: { owner: World; type: T; payload: EventPayloads[T] };
}[K];

@Injectable()
export class OutboxService {
  constructor(
    private readonly events: OutboxEventsRepository,
    private readonly wakeup: OutboxWakeup,
  ) {}

  /**
   * Records an event inside the caller's transaction: it exists if and only if the change commits. Once the
   * transaction has committed, a relay is woken (outbox-wakeup.ts); the relay's poll is only the safety net.
   */
  async record<K extends DomainEventType>(tx: Tx, owner: World, type: K, payload: EventPayloads[K]): Promise<string> {
    // TypeScript cannot see that a generic K's payload matches K inside the union; the signature above checks it.
    const [eventId] = await this.recordMany(tx, [{ owner, type, payload } as PendingEvent]);
    return eventId;
  }

  /** Records several events in one round trip (a batch of dispatches failing together). */
  async recordMany(tx: Tx, events: readonly PendingEvent[]): Promise<string[]> {
    if (!tx.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.record must run inside a transaction');
    }
    if (!events.length) return [];
    const rows = events.map(outboxRow);
    await this.events.insertMany(tx, rows, new Date());
    afterCommit(tx, this.wakeup.committed);
    return rows.map((r) => r.event_id);
  }

  /**
   * Runs `change` (one data-modifying statement with RETURNING) and records the events when, and only when, it
   * returned a row: one statement, atomic without a transaction, in one round trip. For a write that changes one
   * thing and nothing else (creating a contact), or as the last write of the transaction `manager` holds (creating
   * a call that locked its references); resolves what the change returned. The relay is woken once the events
   * have committed: at once when the statement ran on its own, after the transaction's commit otherwise.
   */
  async recordWithChange<R>(
    change: Statement,
    events: readonly PendingEvent[],
    manager?: EntityManager,
  ): Promise<R[]> {
    const changed = await this.events.insertWithChange<R>(change, events.map(outboxRow), new Date(), manager);
    if (!changed.length || !events.length) return changed;
    if (manager) afterCommit(manager, this.wakeup.committed);
    else this.wakeup.committed();
    return changed;
  }
}

function outboxRow(e: PendingEvent): OutboxInsert {
  return {
    event_id: uuidv7(),
    organization_id: e.owner.organizationId,
    livemode: e.owner.livemode,
    type: e.type,
    data: e.payload,
  };
}
