import { EventBodies } from '../../src/modules/outbox/event-bodies';
import type { DomainEventType } from '../../src/modules/outbox/domain-event';
import type { TestApp } from './test-app';

/** An outbox row as tests select it. */
export interface OutboxRow {
  type: DomainEventType;
  organization_id: string;
  livemode: boolean;
  data: any;
}

/** The webhook body of a recorded event, rendered now as the webhook sender renders it. */
export function bodyOf(t: Pick<TestApp, 'app'>, row: OutboxRow): Promise<Record<string, unknown> | null> {
  return t.app
    .get(EventBodies)
    .render(row.type, { organizationId: row.organization_id, livemode: row.livemode }, row.data);
}
