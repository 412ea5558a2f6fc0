import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The fan-out's statement against real PostgreSQL: one round trip marks the events whose listeners finished and
 * reads those whose jobs start, the read seeing each row as it was before the mark.
 */
describe('OutboxEventsRepository.markProcessedAndFind (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let events: OutboxEventsRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
    events = new OutboxEventsRepository(dataSource);
  });
  afterAll(() => close());

  const insert = async (): Promise<string> => {
    const eventId = randomUUID();
    await dataSource.query(
      `INSERT INTO outbox_events (event_id, organization_id, type, data, occurred_at) VALUES ($1, $2, 'call.ended', $3, now())`,
      [eventId, randomUUID(), JSON.stringify({ callId: 'c1' })],
    );
    return eventId;
  };
  const processedAt = async (eventId: string): Promise<Date | null> =>
    (await dataSource.query('SELECT processed_at FROM outbox_events WHERE event_id = $1', [eventId]))[0].processed_at;

  it('marks the finished events and reads the starting ones in one statement', async () => {
    const [done, starting, both] = [await insert(), await insert(), await insert()];
    const rows = await events.markProcessedAndFind([done, both], [starting, both, randomUUID()]);
    // The starting event and the one both marked and read (a duplicate job) come back, as they were before the
    // mark; the unknown (pruned) one is absent.
    expect(rows.map((r) => r.event_id).sort()).toEqual([starting, both].sort());
    expect(rows.every((r) => r.processed_at === null)).toBe(true);
    expect(rows.find((r) => r.event_id === starting)).toMatchObject({ type: 'call.ended', data: { callId: 'c1' } });
    expect(await processedAt(done)).toBeInstanceOf(Date);
    expect(await processedAt(both)).toBeInstanceOf(Date);
    expect(await processedAt(starting)).toBeNull();
  });

  it('keeps the first processed time, and a later read sees it', async () => {
    const eventId = await insert();
    await events.markProcessedAndFind([eventId], []);
    const first = await processedAt(eventId);
    const [row] = await events.markProcessedAndFind([eventId], [eventId]);
    expect(row.processed_at).toEqual(first);
    expect(await processedAt(eventId)).toEqual(first);
  });

  it('reads without marking, and marks without reading', async () => {
    const eventId = await insert();
    expect(await events.markProcessedAndFind([], [eventId])).toHaveLength(1);
    expect(await processedAt(eventId)).toBeNull();
    expect(await events.markProcessedAndFind([eventId], [])).toEqual([]);
    expect(await processedAt(eventId)).toBeInstanceOf(Date);
  });
});
