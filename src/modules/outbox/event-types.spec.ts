import type { World } from '../../common/auth/world';
import type { Tx } from '../../infra/database/tx';
import { DOMAIN_EVENT_TYPES, DomainEventType } from './domain-event';
import type { DomainEvent } from './domain-event-handler';
import type { EventBodyRenderer, EventBodyRenderers, EventFamily } from './event-bodies';
import type { EventPayloads } from './event-payloads';
import type { OutboxService } from './outbox.service';

/**
 * Type-level tests (compiled by `npm run typecheck`; each `@ts-expect-error` must meet an error): an event type
 * exists only with its payload, is recorded with that payload, reaches handlers typed by it, and a module's
 * renderers cover every type of its family.
 */
function recording(outbox: OutboxService, tx: Tx, world: World) {
  void outbox.record(tx, world, 'call.cancelled', { callId: 'c' });
  // @ts-expect-error an event type without a payload in EventPayloads does not exist
  void outbox.record(tx, world, 'call.transferred', { callId: 'c' });
  // @ts-expect-error a contact event records the contact's id, not a call's
  void outbox.record(tx, world, 'contact.created', { callId: 'c' });
  // @ts-expect-error a finished call records the facts its listeners act on
  void outbox.record(tx, world, 'call.ended', { callId: 'c' });
  void outbox.recordMany(tx, [
    { owner: world, type: 'campaign.paused', payload: { campaignId: 'x', pausedReason: null } },
  ]);
  // @ts-expect-error each pending event's payload is its own type's
  void outbox.recordMany(tx, [{ owner: world, type: 'campaign.paused', payload: { messageId: 'm' } }]);
}

function handling(event: DomainEvent<'call.ended' | 'message.received'>): string {
  if (event.type === 'call.ended') return event.payload.endedAt;
  // @ts-expect-error narrowed to message.received: a message payload has no call facts
  return event.payload.endedAt ?? event.payload.messageId;
}

const body: EventBodyRenderer<DomainEventType> = async () => null;
// @ts-expect-error a module's renderers cover its whole family: call.cancelled has none here
const partial: EventBodyRenderers<EventFamily<'call'>> = {
  'call.started': body,
  'call.ended': body,
  'call.failed': body,
  'call.scheduled': body,
};

describe('event types', () => {
  it('lists each type of the payload map once (the list is a record keyed by the map: none missing, none extra)', () => {
    expect(new Set(DOMAIN_EVENT_TYPES).size).toBe(DOMAIN_EVENT_TYPES.length);
    expect(DOMAIN_EVENT_TYPES).toContain('call.ended' satisfies keyof EventPayloads);
  });

  it('keeps the type-level checks reachable', () => {
    expect([typeof recording, typeof handling, typeof partial]).toEqual(['function', 'function', 'object']);
  });
});
