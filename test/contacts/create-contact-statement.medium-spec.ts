import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Contact } from '../../src/modules/contacts/contact.entity';
import { ContactsRepository, NewContact, withTimes } from '../../src/modules/contacts/contacts.repository';
import { OUTBOX_CHANNEL, OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { OutboxWakeup } from '../../src/modules/outbox/outbox-wakeup';
import { openTestDataSource } from '../support/test-data-source';

/**
 * A contact created with its `contact.created` event in one statement (POST /contacts without groups), against
 * real PostgreSQL: both rows or neither, the relay woken by a NOTIFY once the statement has committed, nothing
 * recorded for a phone the world already has.
 */
describe('one-statement create: contact and its event (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let contacts: ContactsRepository;
  let events: OutboxEventsRepository;
  let outbox: OutboxService;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([Contact]));
    contacts = new ContactsRepository(dataSource.getRepository(Contact));
    events = new OutboxEventsRepository(dataSource);
    outbox = new OutboxService(events, new OutboxWakeup(dataSource));
  });
  afterAll(() => close());

  const fields = (phone: string): NewContact => ({
    title: 'Ada',
    phone,
    email: null,
    notes: null,
    tags: ['vip'],
    customFields: { plan: 'gold' },
  });
  const eventsOf = (contactId: string) =>
    dataSource.query(`SELECT type, data FROM outbox_events WHERE data->>'contactId' = $1`, [contactId]);

  async function create(world: { organizationId: string; livemode: boolean }, phone: string) {
    const { contact, statement } = contacts.insertStatement(world, fields(phone));
    const inserted = await outbox.recordWithChange<{ created_at: Date; updated_at: Date }>(statement, [
      { owner: contact, type: 'contact.created', payload: { contactId: contact.id } },
    ]);
    return { contact, created: withTimes(contact, inserted) };
  }

  it('writes the contact and its event, and notifies the relay once they have committed', async () => {
    const listener = new Client({ connectionString: (dataSource.options as { url: string }).url });
    await listener.connect();
    try {
      await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
      const notified = new Promise<string>((resolve) => listener.once('notification', (n) => resolve(n.channel)));
      const world = { organizationId: randomUUID(), livemode: true };
      const { contact, created } = await create(world, '+14155550101');
      expect(created?.createdAt).toBeInstanceOf(Date);
      const stored = await dataSource.manager.findOneByOrFail(Contact, { id: contact.id });
      expect(stored).toMatchObject({ title: 'Ada', phone: '+14155550101', tags: ['vip'], livemode: true });
      expect(stored.customFields).toEqual({ plan: 'gold' });
      expect(await eventsOf(contact.id)).toEqual([{ type: 'contact.created', data: { contactId: contact.id } }]);
      await expect(notified).resolves.toBe(OUTBOX_CHANNEL);
    } finally {
      await listener.end();
    }
  });

  it('a phone the world already has: nothing inserted, no event recorded', async () => {
    const world = { organizationId: randomUUID(), livemode: false };
    await create(world, '+14155550102');
    const second = await create(world, '+14155550102');
    expect(second.created).toBeNull();
    expect(await dataSource.manager.countBy(Contact, { id: second.contact.id })).toBe(0);
    expect(await eventsOf(second.contact.id)).toEqual([]);
    // The other world of the same organization is another namespace: the same phone is a new contact there.
    expect((await create({ ...world, livemode: true }, '+14155550102')).created).not.toBeNull();
  });

  it('both rows or neither: an event that cannot be stored leaves no contact behind', async () => {
    const world = { organizationId: randomUUID(), livemode: true };
    const { contact, statement } = contacts.insertStatement(world, fields('+14155550103'));
    // organization_id is NOT NULL in outbox_events: the event's insert fails inside the same statement.
    const broken = { event_id: randomUUID(), organization_id: null, livemode: true, type: 'contact.created', data: {} };
    await expect(events.insertWithChange(statement, [broken as never], new Date())).rejects.toThrow(/organization_id/);
    expect(await dataSource.manager.countBy(Contact, { id: contact.id })).toBe(0);
  });
});
