import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { DomainEventType } from './domain-event';
import { OutboxEvent } from './outbox-event.entity';

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
    await manager.insert(OutboxEvent, { eventId, organizationId, type, data: data as never, occurredAt: new Date() });
    await manager.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
    return eventId;
  }
}
