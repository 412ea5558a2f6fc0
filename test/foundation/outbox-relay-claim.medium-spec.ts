import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/infra/database/tx';
import { OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The relay's claim against PostgreSQL (OutboxEventsRepository.relayOldest): the oldest unrelayed rows, oldest
 * first, marked relayed only when the relay's transaction commits, and never the same rows to two relays at once.
 */
describe('OutboxEventsRepository.relayOldest (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let events: OutboxEventsRepository;
  const organizationId = randomUUID();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
    events = new OutboxEventsRepository(dataSource);
  });
  afterAll(() => close());

  /** Records `count` events, one transaction each (so in this order); returns their event ids. */
  const record = async (count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const eventId = randomUUID();
      await inTransaction(dataSource, (tx) =>
        events.insertMany(
          tx,
          [{ event_id: eventId, organization_id: organizationId, livemode: true, type: 'contact.created', data: {} }],
          new Date(),
        ),
      );
      ids.push(eventId);
    }
    return ids;
  };
  const unrelayed = async (): Promise<string[]> =>
    (
      await dataSource.query<Array<{ event_id: string }>>(
        'SELECT event_id FROM outbox_events WHERE relayed_at IS NULL ORDER BY id',
      )
    ).map((r) => r.event_id);
  const relayAll = () => inTransaction(dataSource, (tx) => events.relayOldest(tx, 1000));

  beforeEach(async () => {
    await relayAll();
  });

  it('hands out the oldest rows first, as many as asked, and marks them relayed', async () => {
    const ids = await record(5);
    const first = await inTransaction(dataSource, (tx) => events.relayOldest(tx, 3));
    expect(first.map((r) => r.event_id)).toEqual(ids.slice(0, 3));
    expect(first[0]).toEqual(
      expect.objectContaining({ organization_id: organizationId, type: 'contact.created', occurred_at: expect.any(Date) }),
    );
    expect(await unrelayed()).toEqual(ids.slice(3));
    const rest = await relayAll();
    expect(rest.map((r) => r.event_id)).toEqual(ids.slice(3));
    expect(await unrelayed()).toEqual([]);
  });

  it('leaves the rows unrelayed when the relay rolls back (its jobs were not enqueued)', async () => {
    const ids = await record(2);
    await expect(
      inTransaction(dataSource, async (tx) => {
        expect((await events.relayOldest(tx, 10)).map((r) => r.event_id)).toEqual(ids);
        throw new Error('enqueue failed');
      }),
    ).rejects.toThrow('enqueue failed');
    expect(await unrelayed()).toEqual(ids);
  });

  it('never hands the rows one relay holds to another: the second takes the next ones', async () => {
    const ids = await record(4);
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstClaimed!: () => void;
    const claimed = new Promise<void>((resolve) => (firstClaimed = resolve));
    const first = inTransaction(dataSource, async (tx) => {
      const rows = await events.relayOldest(tx, 2);
      firstClaimed();
      await firstHolds;
      return rows;
    });
    await claimed;
    const second = await inTransaction(dataSource, (tx) => events.relayOldest(tx, 10));
    releaseFirst();
    expect((await first).map((r) => r.event_id)).toEqual(ids.slice(0, 2));
    expect(second.map((r) => r.event_id)).toEqual(ids.slice(2));
    expect(await unrelayed()).toEqual([]);
  });
});
