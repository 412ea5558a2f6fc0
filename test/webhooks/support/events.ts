import { DataSource } from 'typeorm';
import { OutboxService } from '../../../src/modules/outbox/outbox.service';
import { DomainEventType } from '../../../src/modules/outbox/domain-event';
import { TestApp } from '../../support/test-app';

/**
 * Records a domain event through the real outbox, as a domain service does inside its transaction (the contacts
 * and calls APIs are built on other branches; this is the same write they make).
 */
export async function recordEvent(
  t: TestApp,
  orgId: string,
  type: DomainEventType,
  data: Record<string, unknown>,
  livemode = true,
): Promise<string> {
  const owner = { organizationId: orgId, livemode };
  return t.app.get(DataSource).transaction((m) => t.app.get(OutboxService).record(m, owner, type, data));
}
