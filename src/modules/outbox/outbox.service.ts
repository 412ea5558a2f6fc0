import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { DomainEventType } from './domain-event';

export const OUTBOX_CHANNEL = 'vc_outbox';

@Injectable()
export class OutboxService {
  /**
   * Records an event inside the caller's transaction: it exists if and only if the change commits. The NOTIFY
   * is delivered on commit and wakes the relay at once; the relay's poll is only the safety net.
   */
  async record(
    manager: EntityManager,
    organizationId: string,
    type: DomainEventType,
    data: Record<string, unknown>,
  ): Promise<string> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.record must run inside a transaction');
    }
    const eventId = uuidv7();
    // One round trip for both: the row, and the NOTIFY that PostgreSQL delivers when the transaction commits.
    await manager.query(
      `WITH inserted AS (
         INSERT INTO outbox_events (event_id, organization_id, type, data, occurred_at)
         VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id)
       SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM inserted`,
      [eventId, organizationId, type, JSON.stringify(data), new Date()],
    );
    return eventId;
  }
}
