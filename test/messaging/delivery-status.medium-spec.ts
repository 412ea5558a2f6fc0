import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { DeliveryStatusService } from '../../src/modules/messaging/delivery-status.service';
import { EarlyDeliveryStatus } from '../../src/modules/messaging/early-delivery-status.entity';
import { EarlyDeliveryStatusesRepository } from '../../src/modules/messaging/early-delivery-statuses.repository';
import { DeliveryStatus, Message } from '../../src/modules/messaging/message.entity';
import { MessagesRepository } from '../../src/modules/messaging/messages.repository';
import { OutboxEvent } from '../../src/modules/outbox/outbox-event.entity';
import { OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { OutboxWakeup } from '../../src/modules/outbox/outbox-wakeup';
import { openTestDataSource } from '../support/test-data-source';

/**
 * A message's delivery status against real PostgreSQL: provider reports arrive late, twice and at once, and the
 * conditional UPDATE of MessagesRepository.moveDeliveryStatus (checked against DELIVERY_TRANSITIONS) keeps the
 * message from ever moving backwards, with one `message.<status>` event per move. The reports applied at once
 * are made to queue on the message's row lock, so the second is decided on what the first wrote. The tests of
 * reports at once and out of order fail when the move's condition is taken out.
 */
describe('DeliveryStatusService (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let statuses: DeliveryStatusService;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([Message, EarlyDeliveryStatus, OutboxEvent]));
    statuses = new DeliveryStatusService(
      dataSource,
      new OutboxService(new OutboxEventsRepository(dataSource), new OutboxWakeup(dataSource)),
      new MessagesRepository(dataSource.getRepository(Message)),
      new EarlyDeliveryStatusesRepository(),
    );
  });
  afterAll(() => close?.());

  type MessageRef = { accountId: string; providerMessageId: string };

  /** Stores an outbound message as a send leaves it (`accepted` unless told), under the provider's reference. */
  async function store(ref: MessageRef, status: DeliveryStatus = 'accepted'): Promise<string> {
    const organizationId = randomUUID();
    await dataSource.getRepository(Message).insert({
      id: uuidv7(),
      organizationId,
      conversationId: randomUUID(),
      direction: 'outbound',
      senderType: 'bot',
      messageType: 'text',
      text: 'Hello',
      deliveryStatus: status,
      timestamp: new Date(),
      ...ref,
    });
    return organizationId;
  }

  /** A stored outbound message as a send leaves it (`accepted`), as the provider names it. */
  async function sent(status: DeliveryStatus = 'accepted') {
    const ref = { accountId: randomUUID(), providerMessageId: `wamid.${randomUUID()}` };
    return { ...ref, organizationId: await store(ref, status) };
  }

  const statusOf = async (ref: { accountId: string; providerMessageId: string }) =>
    (await dataSource.getRepository(Message).findOneByOrFail(ref)).deliveryStatus;

  const eventsOf = async (organizationId: string): Promise<string[]> =>
    (
      await dataSource.query(`SELECT type FROM outbox_events WHERE organization_id = $1 ORDER BY id`, [organizationId])
    ).map((e: { type: string }) => e.type);

  /** Backends of this database waiting on a lock while updating messages. */
  const waitingUpdates = async (): Promise<number> =>
    (
      await dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'UPDATE "messages"%'`,
      )
    )[0].n;

  async function until(condition: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (await condition()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('timed out waiting for the reports to queue on the row lock');
  }

  /**
   * Applies `first` and then `second` to the message while its row is locked, so both wait on the lock in that
   * order and run back to back once it is released: `second` is decided on the row `first` wrote.
   */
  async function atOnce(
    ref: { accountId: string; providerMessageId: string },
    first: DeliveryStatus,
    second: DeliveryStatus,
  ): Promise<[boolean, boolean]> {
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT id FROM messages WHERE account_id = $1 AND provider_message_id = $2 FOR UPDATE`, [
        ref.accountId,
        ref.providerMessageId,
      ]);
      const a = statuses.apply({ ...ref, status: first });
      await until(async () => (await waitingUpdates()) === 1);
      const b = statuses.apply({ ...ref, status: second });
      await until(async () => (await waitingUpdates()) === 2);
      await holder.commitTransaction();
      return await Promise.all([a, b]);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  }

  it('a late `sent` queued behind `read` moves nothing: the message stays read, with one event', async () => {
    const message = await sent();
    expect(await atOnce(message, 'read', 'sent')).toEqual([true, false]);
    expect(await statusOf(message)).toBe('read');
    expect(await eventsOf(message.organizationId)).toEqual(['message.read']);
  });

  it('`failed` queued behind `read` moves nothing; `delivered` queued behind `failed` neither', async () => {
    const read = await sent('delivered');
    expect(await atOnce(read, 'read', 'failed')).toEqual([true, false]);
    expect(await statusOf(read)).toBe('read');

    const failed = await sent('sent');
    expect(await atOnce(failed, 'failed', 'delivered')).toEqual([true, false]);
    expect(await statusOf(failed)).toBe('failed');
    expect(await eventsOf(failed.organizationId)).toEqual(['message.failed']);
  });

  it('out of order one after the other: only the reports that go forward move the message', async () => {
    const message = await sent();
    const applied = [];
    for (const status of ['delivered', 'sent', 'read', 'delivered', 'failed'] as const)
      applied.push(await statuses.apply({ ...message, status }));
    expect(applied).toEqual([true, false, true, false, false]);
    expect(await statusOf(message)).toBe('read');
    expect(await eventsOf(message.organizationId)).toEqual(['message.delivered', 'message.read']);
  });

  it('reports kept before the row is stored are applied once, in order, however many callers claim them', async () => {
    const ref = { accountId: randomUUID(), providerMessageId: `wamid.${randomUUID()}` };
    expect(await statuses.apply({ ...ref, status: 'delivered' })).toBe(false);
    expect(await statuses.apply({ ...ref, status: 'sent' })).toBe(false);
    const organizationId = await store(ref);
    const moved = await Promise.all([1, 2, 3].map(() => statuses.applyEarly(ref.accountId, ref.providerMessageId)));
    expect(moved.sort()).toEqual([0, 0, 2]);
    expect(await statusOf(ref)).toBe('delivered');
    expect(await eventsOf(organizationId)).toEqual(['message.sent', 'message.delivered']);
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM early_delivery_statuses`);
    expect(n).toBe(0);
  });
});
