import type { World } from '../../common/auth/world';
import type { DomainEventType } from './domain-event';
import type { EventPayloads } from './event-payloads';

/** A relayed event as its listeners see it: the typed payload of its type and the world it belongs to. */
export type DomainEvent<K extends DomainEventType = DomainEventType> = {
  [T in K]: { eventId: string; type: T; world: World; occurredAt: string; payload: EventPayloads[T] };
}[K];

/** A reaction to some event types, handed their typed payloads (the campaign engine, the chat agent). Idempotent. */
export interface DomainEventHandler<K extends DomainEventType> {
  types: readonly K[];
  handle(event: DomainEvent<K>): Promise<void>;
}
