import { Logger } from '@nestjs/common';
import type { World } from '../../../common/auth/world';
import { ApiError } from '../../../common/errors/api-error';
import { DeferJob } from '../../../infra/queue/defer-job';
import { FakeDataSource } from '../../../infra/testing/fake-data-source';
import { fakeOf } from '../../../infra/testing/fake-of';
import { ContactsService } from '../../contacts/contacts.service';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import type { Conversation } from '../conversation.entity';
import { ConversationsRepository } from '../conversations.repository';
import { MESSAGE_TEXT_MAX_LENGTH } from '../dto/send-message.dto';
import type { Message } from '../message.entity';
import { MessagesRepository } from '../messages.repository';
import { SendMessageCommand } from '../send-message.command';
import { AnswerMessageCommand } from './answer-message.command';
import type { ChatAgent } from './chat-agent.entity';
import { ChatAgentsService } from './chat-agents.service';
import type { ChatAnswer, ChatPlatform, ChatTurn } from './chat-platform';
import { ChatPlatformRouter } from './chat-platform-router';
import type { ChatPlatformName } from '../../../infra/config/platforms';
import { ChatRepliesRepository } from './chat-replies.repository';
import { ConversationMovesCommand } from './conversation-moves.command';
import { ConversationSummaries } from './conversation-summaries';

type Claim = Awaited<ReturnType<ChatRepliesRepository['claim']>>;

describe('AnswerMessageCommand', () => {
  let message: Message;
  let conversation: Conversation;
  let agent: ChatAgent | null;
  let claim: Claim;
  let listed: string[];
  let platformAnswer: () => Promise<ChatAnswer>;
  let sendFails: Error | null;
  let turns: Array<{ platform: ChatPlatformName; turn: ChatTurn }>;
  let sent: string[];
  let settled: Array<[string, string, object]>;
  let releasedIds: string[];
  let handOffs: Array<[World, string]>;
  /** The order of the steps that end a turn, as the conversation's next message sees them. */
  let steps: string[];
  let summarized: Conversation[];
  let botRepliesAfter: number;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    message = {
      id: 'message-1',
      senderType: 'user',
      accountId: 'account-1',
      conversationId: 'conversation-1',
      messageType: 'text',
      text: 'When are you open?',
    } as Message;
    conversation = {
      id: 'conversation-1',
      organizationId: 'org-1',
      livemode: true,
      status: 'active',
      waUserPhone: '+14155550123',
      contactId: null,
      lastChatId: 'chat-0',
    } as Conversation;
    agent = {
      caseId: 'case-1',
      assistantConfigId: null,
      handOffKeywords: ['human'],
      maxBotReplies: 3,
      platform: 'vapi',
    } as unknown as ChatAgent;
    claim = { outcome: 'won' };
    listed = [];
    platformAnswer = () => Promise.resolve({ text: 'From 9 to 5.', chatId: 'chat-1' });
    sendFails = null;
    turns = [];
    sent = [];
    settled = [];
    releasedIds = [];
    handOffs = [];
    steps = [];
    summarized = [];
    botRepliesAfter = 1;
  });

  const platform = ({ platform }: ChatAgent) =>
    fakeOf<ChatPlatform>({
      reply: (turn) => {
        turns.push({ platform, turn });
        return platformAnswer();
      },
    });

  const command = () =>
    new AnswerMessageCommand(
      new FakeDataSource().asDataSource(),
      fakeOf<ChatAgentsService>({ enabledFor: () => Promise.resolve(agent) }),
      fakeOf<ChatRepliesRepository>({
        claim: () => Promise.resolve(claim),
        settle: (id, status, detail = {}) => {
          settled.push([id, status, detail]);
          steps.push(`settle ${status}`);
          return Promise.resolve();
        },
        release: (id) => {
          releasedIds.push(id);
          return Promise.resolve();
        },
      }),
      fakeOf<ChatPlatformRouter>({ of: platform }),
      fakeOf<SendMessageCommand>({
        execute: (_world, dto) => {
          if (sendFails) return Promise.reject(sendFails);
          sent.push((dto as { text: string }).text);
          return Promise.resolve({ messageId: 'reply-1' } as Awaited<ReturnType<SendMessageCommand['execute']>>);
        },
      }),
      fakeOf<ConversationMovesCommand>({
        handOffByAgent: (world, _id, reason) => {
          handOffs.push([world, reason]);
          steps.push('hand off');
          return Promise.resolve(true);
        },
      }),
      fakeOf<ConversationSummaries>({
        refresh: (c) => {
          summarized.push(c);
          return Promise.resolve(c);
        },
      }),
      fakeOf<DoNotCallService>({
        listedAmong: (_m, _world, numbers) => Promise.resolve(new Set(numbers.filter((n) => listed.includes(n)))),
      }),
      fakeOf<ContactsService>({
        find: (_world, id) => Promise.resolve({ id, title: 'Ada' } as Awaited<ReturnType<ContactsService['find']>>),
      }),
      fakeOf<MessagesRepository>({ findById: (id) => Promise.resolve(id === message.id ? message : null) }),
      fakeOf<ConversationsRepository>({
        getById: () => Promise.resolve(conversation),
        countBotReply: (_id, chatId) => {
          steps.push('count');
          return Promise.resolve({
            ...conversation,
            botRepliesInRow: botRepliesAfter,
            lastChatId: chatId,
          } as Conversation);
        },
      }),
    );

  const answer = (lastAttempt = false) => command().execute(message.id, lastAttempt);
  const world: World = { organizationId: 'org-1', livemode: true };

  it("answers a user's message with the platform's answer, and refreshes the summary", async () => {
    conversation.contactId = 'contact-1';
    await answer();
    expect(turns).toEqual([
      {
        platform: 'vapi',
        turn: {
          organizationId: 'org-1',
          text: 'When are you open?',
          contact: { id: 'contact-1', title: 'Ada' },
          caseId: 'case-1',
          assistantConfigId: null,
          previousChatId: 'chat-0',
        },
      },
    ]);
    expect(sent).toEqual(['From 9 to 5.']);
    expect(settled).toEqual([['message-1', 'sent', { replyMessageId: 'reply-1' }]]);
    expect(summarized.map((c) => c.lastChatId)).toEqual(['chat-1']);
    expect(handOffs).toEqual([]);
  });

  it("answers on the platform the agent's row stores, never one chosen by the conversation's world", async () => {
    await answer();
    agent!.platform = 'simulator';
    await answer();
    expect(turns.map((t) => t.platform)).toEqual(['vapi', 'simulator']);
  });

  describe('answers nothing', () => {
    it('to an unknown message, a message of ours, or an account without an enabled agent', async () => {
      await command().execute('gone', false);
      message.senderType = 'bot';
      await answer();
      message.senderType = 'user';
      agent = null;
      await answer();
      expect([turns, settled]).toEqual([[], []]);
    });

    it('to a message another attempt already settled', async () => {
      claim = { outcome: 'settled' };
      await answer();
      expect([turns, settled]).toEqual([[], []]);
    });

    it("while another attempt holds the message: it looks again when that attempt's lease ends", async () => {
      claim = { outcome: 'busy', retryInMs: 4000 };
      const deferred = await answer().catch((e: unknown) => e);
      expect(deferred).toBeInstanceOf(DeferJob);
      expect((deferred as DeferJob).delayMs).toBe(4000);
      expect(turns).toEqual([]);
    });
  });

  describe('skips, with the reason recorded,', () => {
    const skipped = async () => {
      await answer();
      expect(turns).toEqual([]);
      expect(sent).toEqual([]);
      return settled.map(([, status, detail]) => [status, detail]);
    };

    it('a conversation that is not active', async () => {
      conversation.status = 'handed_off';
      expect(await skipped()).toEqual([['skipped', { reason: 'NOT_ACTIVE' }]]);
    });

    it('an opt-out (STOP)', async () => {
      message.text = 'STOP';
      expect(await skipped()).toEqual([['skipped', { reason: 'OPT_OUT' }]]);
    });

    it('a number on the do-not-call list', async () => {
      listed = ['+14155550123'];
      expect(await skipped()).toEqual([['skipped', { reason: 'DO_NOT_CALL' }]]);
    });

    it('anything but text (a photo, a location) or blank text, which waits for a person', async () => {
      message.messageType = 'image';
      expect(await skipped()).toEqual([['skipped', { reason: 'NOT_TEXT' }]]);
      settled = [];
      message.messageType = 'text';
      message.text = '   ';
      expect(await skipped()).toEqual([['skipped', { reason: 'NOT_TEXT' }]]);
    });

    it('a hand-off keyword, handing the conversation to a person', async () => {
      message.text = 'Can I talk to a human please';
      expect(await skipped()).toEqual([['skipped', { reason: 'HAND_OFF_KEYWORD' }]]);
      expect(handOffs).toEqual([[world, 'HAND_OFF_KEYWORD']]);
    });

    it("the send's refusal (the 24-hour window closed), which is an outcome, not a fault", async () => {
      sendFails = new ApiError('SESSION_EXPIRED', 'the 24-hour window is closed');
      await answer();
      expect(settled).toEqual([['message-1', 'skipped', { reason: 'SESSION_EXPIRED' }]]);
    });
  });

  it('fails on a fault of the send that is not a refusal, leaving the message to the retry', async () => {
    sendFails = new Error('connection reset');
    await expect(answer()).rejects.toThrow('connection reset');
    expect(settled).toEqual([]);
  });

  it('cuts an answer longer than a message may be to the bound, marked as cut', async () => {
    platformAnswer = () => Promise.resolve({ text: 'x'.repeat(MESSAGE_TEXT_MAX_LENGTH + 10), chatId: null });
    await answer();
    expect(sent[0]).toHaveLength(MESSAGE_TEXT_MAX_LENGTH);
    expect(sent[0].endsWith('…')).toBe(true);
  });

  it('hands the conversation off at the limit of bot replies in a row, instead of summarizing', async () => {
    botRepliesAfter = 3;
    await answer();
    expect(sent).toHaveLength(1);
    expect(handOffs).toEqual([[world, 'MAX_BOT_REPLIES']]);
    expect(summarized).toEqual([]);
  });

  it('ends the turn only once the reply is counted and, at the limit, the conversation handed off', async () => {
    // The conversation's next message is claimed as soon as this turn settles: settling first let it see the old
    // count and an active conversation, and a flood got one reply over maxBotReplies.
    await answer();
    expect(steps).toEqual(['count', 'settle sent']);
    steps = [];
    botRepliesAfter = 3;
    await answer();
    expect(steps).toEqual(['count', 'hand off', 'settle sent']);
  });

  describe('when the platform fails', () => {
    beforeEach(() => {
      platformAnswer = () => Promise.reject(new Error('upstream 503'));
    });

    it('sends nothing, gives the message back and fails the attempt so the job retries', async () => {
      await expect(answer(false)).rejects.toThrow('CHAT_PLATFORM_ERROR: upstream 503');
      expect(releasedIds).toEqual(['message-1']);
      expect([sent, settled, handOffs]).toEqual([[], [], []]);
    });

    it('at the last attempt, records the failure and hands the conversation to a person', async () => {
      await answer(true);
      expect(settled).toEqual([['message-1', 'failed', { reason: 'CHAT_PLATFORM_ERROR: upstream 503' }]]);
      expect(handOffs).toEqual([[world, 'CHAT_PLATFORM_ERROR: upstream 503']]);
      expect(releasedIds).toEqual([]);
    });
  });
});
