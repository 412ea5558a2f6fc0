import { DomainEventMessage } from './domain-event';

/** The outbox columns a domain-event job is built from: never the payload, so a batch of jobs stays small. */
export const OUTBOX_JOB_COLUMNS = 'id, event_id, organization_id, type, occurred_at';

export interface OutboxJobRow {
  id: string;
  event_id: string;
  organization_id: string;
  type: DomainEventMessage['type'];
  occurred_at: Date;
}

/**
 * The queue job of one outbox row. Its job id is the event id, so enqueueing an event whose job still exists
 * (a relay retried, or a replay of an event whose job is merely slow) adds nothing; one whose job has left the
 * queue runs again and finds the event processed (DomainEventFanoutService).
 */
export function domainEventJob(row: OutboxJobRow) {
  return {
    data: {
      eventId: row.event_id,
      organizationId: row.organization_id,
      type: row.type,
      occurredAt: row.occurred_at.toISOString(),
    } satisfies DomainEventMessage,
    opts: { jobId: row.event_id, attempts: 10, backoff: { type: 'exponential', delay: 1000 } },
  };
}
