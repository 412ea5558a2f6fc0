import { Injectable } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { DOMAIN_EVENT_TYPES, DomainEventType } from './domain-event';
import type { EventPayloads } from './event-payloads';

/**
 * Renders one event's public body (the webhook's `data`) from the rows as they are now; null when the row it
 * describes is gone (the delivery is then cancelled). Reads are scoped to the event's world.
 */
export type EventBodyRenderer<K extends DomainEventType> = (
  world: World,
  payload: EventPayloads[K],
) => Promise<Record<string, unknown> | null>;

/** A module's renderers, one per event type it owns: a type of the family left without one does not compile. */
export type EventBodyRenderers<K extends DomainEventType> = { [T in K]: EventBodyRenderer<T> };

/** The event types of one family (`call.`, `contact.`...), for a module's `EventBodyRenderers`. */
export type EventFamily<P extends string> = Extract<DomainEventType, `${P}.${string}`>;

/** The id naming what an event of each family describes (event-payloads.ts). */
const SUBJECT_ID: Record<string, string> = {
  call: 'callId',
  contact: 'contactId',
  campaign: 'campaignId',
  message: 'messageId',
  conversation: 'conversationId',
  phone_number: 'phoneNumberId',
  scenario_run: 'runId',
};

/**
 * The public body of each event type. The module that owns an event's rows registers its renderers (the outbox
 * imports no module; docs/architecture.md, "Which folder may import which"), and the webhook sender renders a
 * body when it sends an attempt. `missing()` names the types nobody registered, checked at start-up.
 */
@Injectable()
export class EventBodies {
  private readonly renderers = new Map<DomainEventType, EventBodyRenderer<DomainEventType>>();

  register<K extends DomainEventType>(renderers: EventBodyRenderers<K>): void {
    for (const [type, render] of Object.entries(renderers) as Array<[K, EventBodyRenderer<K>]>) {
      this.renderers.set(type, render as unknown as EventBodyRenderer<DomainEventType>);
    }
  }

  missing(): DomainEventType[] {
    return DOMAIN_EVENT_TYPES.filter((type) => !this.renderers.has(type));
  }

  /**
   * Null for a payload without its ids (a row in the shape of an older release, written while two releases
   * overlapped): a lookup by a missing id must never find some other row of the world (TypeORM drops an
   * undefined condition), so such an event is not sent.
   */
  async render<K extends DomainEventType>(
    type: K,
    world: World,
    payload: EventPayloads[K],
  ): Promise<Record<string, unknown> | null> {
    const render = this.renderers.get(type);
    if (!render) throw new Error(`No webhook body renderer for ${type}`);
    const subject: unknown = Object.entries(payload).find(([key]) => key === SUBJECT_ID[type.split('.')[0]])?.[1];
    if (typeof subject !== 'string') return null;
    return render(world, payload);
  }
}
