import { Injectable, OnModuleInit } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import type { ContactEventPayload } from '../outbox/event-payloads';
import { KeyedBatcher } from '../../common/concurrency/keyed-batcher';
import { QUEUE_CONCURRENCY, QueueName } from '../../infra/queue/queue-names';
import type { Contact } from './contact.entity';
import { ContactResponse } from './contact.response';
import type { ContactKey } from './contacts.repository';
import { ContactsService } from './contacts.service';

/**
 * The body of contact events: the Contact as it is now, and for `contact.deleted` the Contact as it was before the
 * delete (docs/contracts/conventions.md), recorded with the event since its row is gone.
 */
@Injectable()
export class ContactEventBodies implements OnModuleInit {
  /**
   * The contacts of the bodies rendered at once (one per webhook attempt in flight at most) are read in one
   * statement: one per event was a quarter of the statements of a burst of contact events (BENCHMARKS.md).
   */
  private readonly reads = new KeyedBatcher<ContactKey, Contact | null>(
    (_, keys) => this.contacts.findMany(keys),
    QUEUE_CONCURRENCY[QueueName.WebhookDeliveries],
  );

  constructor(
    private readonly bodies: EventBodies,
    private readonly contacts: ContactsService,
  ) {}

  onModuleInit(): void {
    const current = async (world: World, { contactId }: ContactEventPayload) => {
      const contact = await this.reads.submit('', { world, id: contactId });
      return contact && { ...ContactResponse.from(contact) };
    };
    this.bodies.register({
      'contact.created': current,
      'contact.updated': current,
      'contact.deleted': async (_world, { contact }) => ({ ...contact }),
    } satisfies EventBodyRenderers<EventFamily<'contact'>>);
  }
}
