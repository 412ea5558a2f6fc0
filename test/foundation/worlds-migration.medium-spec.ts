import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Worlds1795470000001 } from '../../src/infra/database/migrations/1795470000001-Worlds';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The Worlds migration against real PostgreSQL, on rows written before it: existing data is live unless it is
 * already marked test (a conversation whose every message is a test message, an event about a test call or a
 * test campaign), and uniqueness becomes per organization and world.
 */
describe('Worlds migration (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  const migration = new Worlds1795470000001();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
  });
  afterAll(() => close());

  const run = async (step: 'up' | 'down') => {
    const runner = dataSource.createQueryRunner();
    try {
      await migration[step](runner);
    } finally {
      await runner.release();
    }
  };

  it('backfills livemode: live by default, test where rows already say so', async () => {
    await run('down');
    const org = randomUUID();
    const [testCall, liveCall, account] = [randomUUID(), randomUUID(), randomUUID()];
    const [testThread, liveThread, mixedThread] = [randomUUID(), randomUUID(), randomUUID()];
    await dataSource.query(
      `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, livemode)
       VALUES ($1, $3, 'ended', 'outbound', '+14155550100', '+14155550101', false),
              ($2, $3, 'ended', 'outbound', '+14155550100', '+14155550102', true)`,
      [testCall, liveCall, org],
    );
    await dataSource.query(
      `INSERT INTO contacts (id, organization_id, title, phone) VALUES ($1, $2, 'Ann', '+14155550101')`,
      [randomUUID(), org],
    );
    await dataSource.query(
      `INSERT INTO messaging_accounts (id, organization_id, status, display_phone_number, verified_name)
       VALUES ($1, $2, 'active', '+1 555', 'Acme')`,
      [account, org],
    );
    for (const [thread, phone] of [
      [testThread, '+14155550111'],
      [liveThread, '+14155550112'],
      [mixedThread, '+14155550113'],
    ]) {
      await dataSource.query(
        `INSERT INTO conversations (id, organization_id, integration_id, status, wa_user_phone, last_activity_at)
         VALUES ($1, $2, $3, 'active', $4, now())`,
        [thread, org, account, phone],
      );
    }
    const message = (thread: string, livemode: boolean) =>
      dataSource.query(
        `INSERT INTO messages (id, organization_id, conversation_id, account_id, direction, sender_type,
                               message_type, provider_message_id, timestamp, livemode)
         VALUES ($1, $2, $3, $4, 'outbound', 'bot', 'text', $6, now(), $5)`,
        [randomUUID(), org, thread, account, livemode, randomUUID()],
      );
    await message(testThread, false);
    await message(liveThread, true);
    await message(mixedThread, false);
    await message(mixedThread, true);
    const event = (type: string, id: string) =>
      dataSource.query(
        `INSERT INTO outbox_events (event_id, organization_id, type, data, occurred_at)
         VALUES ($1, $2, $3, $4, now()) RETURNING event_id`,
        [randomUUID(), org, type, JSON.stringify({ id })],
      );
    const [[testEvent], [liveEvent], [contactEvent]] = await Promise.all([
      event('call.ended', testCall),
      event('call.ended', liveCall),
      event('contact.created', randomUUID()),
    ]);

    await run('up');

    const worldOf = async (table: string, id: string, column = 'id') =>
      (await dataSource.query(`SELECT livemode FROM ${table} WHERE ${column} = $1`, [id]))[0].livemode;
    expect(await worldOf('conversations', testThread)).toBe(false);
    expect(await worldOf('conversations', liveThread)).toBe(true);
    expect(await worldOf('conversations', mixedThread)).toBe(true);
    expect(await worldOf('outbox_events', testEvent.event_id, 'event_id')).toBe(false);
    expect(await worldOf('outbox_events', liveEvent.event_id, 'event_id')).toBe(true);
    expect(await worldOf('outbox_events', contactEvent.event_id, 'event_id')).toBe(true);
    expect(await worldOf('messaging_accounts', account)).toBe(true);
    const contacts = await dataSource.query(`SELECT livemode FROM contacts WHERE organization_id = $1`, [org]);
    expect(contacts).toEqual([{ livemode: true }]);
    // The same phone may now be a contact of each world, and never twice in one.
    await dataSource.query(
      `INSERT INTO contacts (id, organization_id, livemode, title, phone) VALUES ($1, $2, false, 'Ann', '+14155550101')`,
      [randomUUID(), org],
    );
    await expect(
      dataSource.query(
        `INSERT INTO contacts (id, organization_id, livemode, title, phone) VALUES ($1, $2, false, 'Ann', '+14155550101')`,
        [randomUUID(), org],
      ),
    ).rejects.toThrow(/ux_contacts_org_phone/);
  });
});
