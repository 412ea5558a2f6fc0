import type { EventPayloads } from './event-payloads';

export type DomainEventType = keyof EventPayloads;

/**
 * Every event type once, in the order the OpenAPI enums list them. A record keyed by the payload map: a type
 * missing here, or one here without a payload, does not compile.
 */
const EVENT_TYPE_ORDER: Record<DomainEventType, true> = {
  'call.started': true,
  'call.ended': true,
  'call.failed': true,
  'call.scheduled': true,
  'call.cancelled': true,
  'contact.created': true,
  'contact.updated': true,
  'contact.deleted': true,
  'campaign.started': true,
  'campaign.paused': true,
  'campaign.completed': true,
  'message.received': true,
  'message.sent': true,
  'message.delivered': true,
  'message.read': true,
  'message.failed': true,
  'conversation.handed_off': true,
  'phone_number.health_changed': true,
  'scenario_run.completed': true,
};

export const DOMAIN_EVENT_TYPES = Object.keys(EVENT_TYPE_ORDER) as readonly DomainEventType[];

/**
 * What travels on the domain-events queue: a reference to the outbox row (docs/contracts/bounds.md: queues carry
 * references, not documents). The fan-out reads the payload from `outbox_events` when a listener needs it.
 */
export interface DomainEventMessage {
  eventId: string;
  organizationId: string;
  type: DomainEventType;
  occurredAt: string;
}

/** Something that reacts to relayed domain events by reference only (the webhook fan-out). Idempotent per eventId. */
export interface DomainEventListener {
  onDomainEvent(event: DomainEventMessage): Promise<void>;
}
