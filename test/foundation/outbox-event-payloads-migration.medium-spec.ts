import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OutboxEventPayloads1795520000000 } from '../../src/infra/database/migrations/1795520000000-OutboxEventPayloads';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The outbox payload migration against real PostgreSQL: rows written when an event held the public document are
 * rewritten into their type's payload (event-payloads.ts); rows already in the new shape are left alone.
 */
describe('OutboxEventPayloads migration (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
  });
  afterAll(() => close());

  const org = randomUUID();
  const insert = async (type: string, data: object): Promise<string> => {
    const eventId = randomUUID();
    await dataSource.query(
      `INSERT INTO outbox_events (event_id, organization_id, type, data, occurred_at) VALUES ($1, $2, $3, $4, now())`,
      [eventId, org, type, JSON.stringify(data)],
    );
    return eventId;
  };
  const dataOf = async (eventId: string) =>
    (await dataSource.query('SELECT data FROM outbox_events WHERE event_id = $1', [eventId]))[0].data;

  it('rewrites each old document into its payload, and leaves new payloads alone', async () => {
    const contact = { id: 'k1', title: 'Ann', phone: '+14155550101', tags: [] };
    const ended = await insert('call.ended', {
      id: 'c1',
      status: 'ended',
      direction: 'outbound',
      callTo: '+14155550101',
      contactId: 'k1',
      caseId: null,
      campaignId: 'p1',
      endedReason: 'customer-busy',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const started = await insert('call.started', { id: 'c1', status: 'in-progress' });
    const deleted = await insert('contact.deleted', contact);
    const updated = await insert('contact.updated', contact);
    const paused = await insert('campaign.paused', { id: 'p1', status: 'paused', pausedReason: 'NO_PLAN' });
    const read = await insert('message.read', { id: 'm1', conversationId: 'v1', senderType: 'bot', text: 'hi' });
    const handedOff = await insert('conversation.handed_off', { id: 'v1', status: 'handed_off' });
    const current = await insert('call.cancelled', { callId: 'c2' });

    const runner = dataSource.createQueryRunner();
    try {
      await new OutboxEventPayloads1795520000000().up(runner);
    } finally {
      await runner.release();
    }

    expect(await dataOf(ended)).toEqual({
      callId: 'c1',
      direction: 'outbound',
      callTo: '+14155550101',
      contactId: 'k1',
      caseId: null,
      campaignId: 'p1',
      endedReason: 'customer-busy',
      endedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await dataOf(started)).toEqual({ callId: 'c1' });
    expect(await dataOf(deleted)).toEqual({ contactId: 'k1', contact });
    expect(await dataOf(updated)).toEqual({ contactId: 'k1' });
    expect(await dataOf(paused)).toEqual({ campaignId: 'p1', pausedReason: 'NO_PLAN' });
    expect(await dataOf(read)).toEqual({ messageId: 'm1', conversationId: 'v1', senderType: 'bot' });
    expect(await dataOf(handedOff)).toEqual({ conversationId: 'v1' });
    expect(await dataOf(current)).toEqual({ callId: 'c2' });
  });
});
