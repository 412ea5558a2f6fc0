/** Event names of the spec's Events table. */
export const DOMAIN_EVENT_TYPES = [
  'call.started',
  'call.ended',
  'call.failed',
  'call.scheduled',
  'call.cancelled',
  'contact.created',
  'contact.updated',
  'contact.deleted',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/** What travels on the domain-events queue: the outbox row, as recorded. */
export interface DomainEventMessage {
  eventId: string;
  organizationId: string;
  type: DomainEventType;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** Something that reacts to relayed domain events (the webhook fan-out). Must be idempotent per eventId. */
export interface DomainEventListener {
  onDomainEvent(event: DomainEventMessage): Promise<void>;
}
