import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { ChatRepliesRepository } from '../../src/modules/messaging/chat-agent/chat-replies.repository';
import { ChatReply } from '../../src/modules/messaging/chat-agent/chat-reply.entity';
import { Message } from '../../src/modules/messaging/message.entity';
import { openTestDataSource } from '../support/test-data-source';

/** The reply claim against real PostgreSQL: one winner however many workers see a message at once. */
describe('ChatRepliesRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let replies: ChatRepliesRepository;
  const message = () =>
    Object.assign(new Message(), { id: uuidv7(), organizationId: uuidv7(), conversationId: uuidv7() });

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([ChatReply]));
    replies = new ChatRepliesRepository(dataSource);
  });
  afterAll(() => close?.());

  it('of ten workers claiming one message at once, exactly one wins', async () => {
    const m = message();
    const results = await Promise.all(Array.from({ length: 10 }, () => replies.claim(m)));
    expect(results.filter((r) => r.outcome === 'won')).toHaveLength(1);
    // The others are told to look again when the winner's lease ends (it may die mid-reply).
    for (const r of results.filter((r) => r.outcome !== 'won')) {
      expect(r).toEqual({ outcome: 'busy', retryInMs: expect.any(Number) });
      if (r.outcome === 'busy') expect(r.retryInMs).toBeGreaterThan(20_000);
    }
  });

  it('a released claim (the platform failed) is taken by the retry; a settled one never again', async () => {
    const m = message();
    expect((await replies.claim(m)).outcome).toBe('won');
    expect((await replies.claim(m)).outcome).toBe('busy');
    await replies.release(m.id);
    expect((await replies.claim(m)).outcome).toBe('won');
    await replies.settle(m.id, 'sent', { replyMessageId: uuidv7() });
    await replies.release(m.id);
    expect(await replies.claim(m)).toEqual({ outcome: 'settled' });
    const [row] = await dataSource.query(`SELECT status, attempts FROM chat_replies WHERE inbound_message_id = $1`, [
      m.id,
    ]);
    expect(row).toEqual({ status: 'sent', attempts: 2 });
  });
});
