import { Injectable, OnModuleInit } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import type { ContactEventPayload } from '../outbox/event-payloads';
import { ContactResponse } from './contact.response';
import { ContactsService } from './contacts.service';

/**
 * The body of contact events: the Contact as it is now, and for `contact.deleted` the Contact as it was before the
 * delete (docs/contracts/conventions.md), recorded with the event since its row is gone.
 */
@Injectable()
export class ContactEventBodies implements OnModuleInit {
  constructor(
    private readonly bodies: EventBodies,
    private readonly contacts: ContactsService,
  ) {}

  onModuleInit(): void {
    const current = async (world: World, { contactId }: ContactEventPayload) => {
      const contact = await this.contacts.find(world, contactId);
      return contact && { ...ContactResponse.from(contact) };
    };
    this.bodies.register({
      'contact.created': current,
      'contact.updated': current,
      'contact.deleted': async (_world, { contact }) => ({ ...contact }),
    } satisfies EventBodyRenderers<EventFamily<'contact'>>);
  }
}
