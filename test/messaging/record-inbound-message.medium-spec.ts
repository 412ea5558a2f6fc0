import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Contact } from '../../src/modules/contacts/contact.entity';
import { ContactsRepository } from '../../src/modules/contacts/contacts.repository';
import { ContactsService } from '../../src/modules/contacts/contacts.service';
import { Conversation } from '../../src/modules/messaging/conversation.entity';
import { ConversationsRepository } from '../../src/modules/messaging/conversations.repository';
import { Message } from '../../src/modules/messaging/message.entity';
import { MessagesRepository } from '../../src/modules/messaging/messages.repository';
import { MessagingAccount } from '../../src/modules/messaging/messaging-account.entity';
import { MessagingAccountsRepository } from '../../src/modules/messaging/messaging-accounts.repository';
import {
  InboundMessage,
  RecordInboundMessageCommand,
} from '../../src/modules/messaging/record-inbound-message.command';
import { OutboxEvent } from '../../src/modules/outbox/outbox-event.entity';
import { OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { OutboxWakeup } from '../../src/modules/outbox/outbox-wakeup';
import { openTestDataSource } from '../support/test-data-source';

/**
 * Recording an inbound message against real PostgreSQL: a message the provider delivers twice is stored once
 * (insert-or-ignore on the provider's id), two first messages from one user at once make one conversation
 * (insert-if-absent, then the row lock), and the `message.received` event exists exactly when the message does.
 * Each test fails when its conditional insert is taken out.
 */
describe('RecordInboundMessageCommand (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let record: RecordInboundMessageCommand;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([MessagingAccount, Conversation, Message, Contact, OutboxEvent]));
    const outbox = new OutboxService(new OutboxEventsRepository(dataSource), new OutboxWakeup(dataSource));
    // Only findOrCreateByPhone is reached: no contact groups, no cursors; no opt-out text, so no ledger listing.
    const repository = new ContactsRepository(dataSource.getRepository(Contact));
    const contacts = new ContactsService(dataSource, repository, null as never, outbox, null as never);
    record = new RecordInboundMessageCommand(
      dataSource,
      contacts,
      null as never,
      outbox,
      new MessagesRepository(dataSource.getRepository(Message)),
      new ConversationsRepository(dataSource.getRepository(Conversation)),
      new MessagingAccountsRepository(dataSource.getRepository(MessagingAccount)),
    );
  });
  afterAll(() => close());

  async function account(): Promise<MessagingAccount> {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO messaging_accounts (id, organization_id, status, display_phone_number, verified_name)
       VALUES ($1, $2, 'active', '+15550000100', 'Shop')`,
      [id, randomUUID()],
    );
    return dataSource.manager.findOneByOrFail(MessagingAccount, { id });
  }

  const inbound = (acc: MessagingAccount, providerMessageId: string, from = '+15550000200'): InboundMessage => ({
    account: acc,
    from,
    name: 'Ada',
    providerMessageId,
    messageType: 'text',
    text: 'Hello',
    timestamp: new Date(),
  });

  const count = async (sql: string, accountId: string): Promise<number> =>
    (await dataSource.query(sql, [accountId]))[0].n;

  it('stores a message the provider delivers twice once, with one message.received event', async () => {
    const acc = await account();
    const first = await record.execute(inbound(acc, 'wamid.1'));
    const again = await record.execute(inbound(acc, 'wamid.1'));
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await count('SELECT count(*)::int AS n FROM messages WHERE account_id = $1', acc.id)).toBe(1);
    const events = await dataSource.query(
      `SELECT type, data FROM outbox_events WHERE organization_id = $1 AND type = 'message.received'`,
      [acc.organizationId],
    );
    expect(events).toEqual([
      {
        type: 'message.received',
        data: { messageId: first.messageId, conversationId: first.conversationId, senderType: 'user' },
      },
    ]);
  });

  it('two first messages from one user at once make one conversation holding both', async () => {
    const acc = await account();
    const [a, b] = await Promise.all([
      record.execute(inbound(acc, 'wamid.a')),
      record.execute(inbound(acc, 'wamid.b')),
    ]);
    expect(a.conversationId).toBe(b.conversationId);
    expect(await count('SELECT count(*)::int AS n FROM conversations WHERE integration_id = $1', acc.id)).toBe(1);
    const [thread] = await dataSource.query('SELECT message_count FROM conversations WHERE id = $1', [
      a.conversationId,
    ]);
    expect(thread.message_count).toBe(2);
  });
});
