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
  // Extensions (docs/contracts/dialer.md): the dialer; data is the Campaign.
  'campaign.started',
  'campaign.paused',
  'campaign.completed',
  // Extensions: messaging; data is the Message with its conversationId and livemode.
  'message.received',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  // Extension: the chat agent handed a conversation to a person; data is the Conversation.
  'conversation.handed_off',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * What travels on the domain-events queue: a reference to the outbox row (docs/contracts/bounds.md: queues carry references,
 * not documents). Whoever needs the payload reads it from `outbox_events` by `eventId` when it uses it.
 */
export interface DomainEventMessage {
  eventId: string;
  organizationId: string;
  type: DomainEventType;
  occurredAt: string;
}

/** Something that reacts to relayed domain events (the webhook fan-out). Must be idempotent per eventId. */
export interface DomainEventListener {
  onDomainEvent(event: DomainEventMessage): Promise<void>;
}
