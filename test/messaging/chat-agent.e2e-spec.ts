import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { createAccount, eventually } from './messaging-fixtures';

/** The chat agent on the messaging and chat simulators: answers, hand-offs, limits, summaries, opt-outs. */
describe('messaging: the chat agent', () => {
  let t: TestApp;
  let org: TestOrg;
  let accountId: string;
  let receiver: WebhookReceiver;
  let phoneSeq = 0;
  const nextPhone = () => `+1415556${String(1000 + phoneSeq++).padStart(4, '0')}`;

  const conversation = async (id: string) => (await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data;
  const botMessages = async (id: string) =>
    ((await conversation(id)).messages as Array<{ senderType: string; text: string }>).filter(
      (m) => m.senderType === 'bot',
    );
  /** Waits until the agent has settled its decision about the message (sent, skipped or failed). */
  const settled = (messageId: string) =>
    eventually(async () => {
      const { rows } = await t.db.query(`SELECT status, reason FROM chat_replies WHERE inbound_message_id = $1`, [
        messageId,
      ]);
      return rows[0]?.status !== 'replying' && rows[0];
    });
  const write = async (phone: string, text: string, messageId?: string) => {
    const res = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId,
      from: phone,
      name: 'Ann Lee',
      text,
      ...(messageId ? { messageId } : {}),
    });
    expect(res.status).toBe(201);
    return res.body.data as { conversationId: string; messageId: string; duplicate: boolean };
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    org = await createOrg(t);
    accountId = (await createAccount(t, org.id, { phoneNumberId: 'pn-chat-agent' })).id;
    const hook = await org.api.post('/api/v1/webhooks', {
      url: `${receiver.url}/conversations`,
      events: ['conversation.handed_off'],
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('is off with the defaults until set; PUT sets it, GET returns it, bad input is 400', async () => {
    const before = await t.admin.get(`/admin/v1/messaging-accounts/${accountId}/chat-agent`);
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({
      accountId,
      enabled: false,
      handOffKeywords: ['agent', 'human', 'person'],
      maxBotReplies: 10,
      summary: true,
    });
    // Nothing answers while the agent is off.
    const quiet = await write(nextPhone(), 'Anyone there?');
    expect((await conversation(quiet.conversationId)).aiSummary).toBeNull();

    for (const bad of [
      { enabled: true, maxBotReplies: 51 },
      { enabled: true, maxBotReplies: 0 },
      { enabled: true, handOffKeywords: Array.from({ length: 21 }, (_, i) => `word${i}`) },
      { enabled: true, handOffKeywords: ['a(b'] },
      { enabled: 'yes' },
      { enabled: true, caseId: '0190a0d2-0000-7000-8000-000000000000' },
    ]) {
      const res = await t.admin.put(`/admin/v1/messaging-accounts/${accountId}/chat-agent`, bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const limits = await t.admin.put(`/admin/v1/messaging-accounts/${accountId}/chat-agent`, {
      enabled: true,
      maxBotReplies: 50,
      handOffKeywords: Array.from({ length: 20 }, (_, i) => `Word${i}`),
    });
    expect(limits.status).toBe(200);
    const put = await t.admin.put(`/admin/v1/messaging-accounts/${accountId}/chat-agent`, {
      enabled: true,
      maxBotReplies: 3,
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      enabled: true,
      maxBotReplies: 3,
      handOffKeywords: ['agent', 'human', 'person'],
    });
    expect((await t.admin.get(`/admin/v1/messaging-accounts/${accountId}/chat-agent`)).body.data).toEqual(
      put.body.data,
    );
    expect(
      (await t.admin.get('/admin/v1/messaging-accounts/0190a0d2-0000-7000-8000-000000000000/chat-agent')).status,
    ).toBe(404);
  });

  it('answers an inbound message once, even when the provider delivers it twice, and sets aiSummary', async () => {
    const phone = nextPhone();
    const first = await write(phone, 'Can I book Tuesday?', 'wamid.chat-once');
    const again = await write(phone, 'Can I book Tuesday?', 'wamid.chat-once');
    expect(again.duplicate).toBe(true);
    expect(await settled(first.messageId)).toMatchObject({ status: 'sent' });
    const replies = await eventually(async () => {
      const bots = await botMessages(first.conversationId);
      return bots.length > 0 && bots;
    });
    expect(replies).toEqual([expect.objectContaining({ text: 'Thanks Ann Lee, you said: "Can I book Tuesday?"' })]);
    // The spec's promise, measured: the reply is stored within 10 s of the user's message.
    const { rows: took } = await t.db.query(
      `SELECT (EXTRACT(EPOCH FROM r.created_at - u.created_at) * 1000)::int AS ms
         FROM chat_replies c JOIN messages u ON u.id = c.inbound_message_id JOIN messages r ON r.id = c.reply_message_id
        WHERE c.inbound_message_id = $1`,
      [first.messageId],
    );
    expect(took[0].ms).toBeLessThan(10_000);
    const c = await conversation(first.conversationId);
    expect(c.status).toBe('active');
    expect(c.messageCount).toBe(2);
    expect(c.aiSummary).toBe('2 messages; last from the user: "Can I book Tuesday?"');
  });

  it('a hand-off keyword (whole word, any case) hands off, fires the event, and the bot stops', async () => {
    const phone = nextPhone();
    const asked = await write(phone, 'Let me talk to a HUMAN please');
    expect(await settled(asked.messageId)).toMatchObject({ status: 'skipped', reason: 'HAND_OFF_KEYWORD' });
    const c = await conversation(asked.conversationId);
    expect(c.status).toBe('handed_off');
    expect(c.aiSummary).toBe('1 messages; last from the user: "Let me talk to a HUMAN please"');
    await receiver.waitFor((all) =>
      all.some((r) => r.path === '/conversations' && JSON.parse(r.rawBody).data.id === asked.conversationId),
    );
    const event = receiver
      .on('/conversations')
      .map((r) => JSON.parse(r.rawBody))
      .find((e) => e.data.id === asked.conversationId);
    expect(event).toMatchObject({ event: 'conversation.handed_off', livemode: true, data: { status: 'handed_off' } });
    // The body is what the committed webhook event schema documents.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const schema = JSON.parse(readFileSync(join(__dirname, '../../openapi/webhook-events.schema.json'), 'utf8'));
    const valid = ajv.compile(schema);
    expect(valid(event)).toBe(true);
    expect(receiver.on('/conversations')[0].headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const later = await write(phone, 'Hello?');
    expect(await settled(later.messageId)).toMatchObject({ status: 'skipped', reason: 'NOT_ACTIVE' });
    expect(await botMessages(asked.conversationId)).toHaveLength(0);

    // "humane" holds "human" only inside a word: answered.
    const other = await write(nextPhone(), 'That was humane of you');
    expect(await settled(other.messageId)).toMatchObject({ status: 'sent' });
  });

  it('hands off after maxBotReplies replies in a row', async () => {
    const phone = nextPhone();
    let last!: { conversationId: string; messageId: string };
    for (const text of ['one', 'two', 'three']) {
      last = await write(phone, text);
      expect(await settled(last.messageId)).toMatchObject({ status: 'sent' });
    }
    expect(await botMessages(last.conversationId)).toHaveLength(3);
    expect((await conversation(last.conversationId)).status).toBe('handed_off');
    const fourth = await write(phone, 'four');
    expect(await settled(fourth.messageId)).toMatchObject({ status: 'skipped', reason: 'NOT_ACTIVE' });
    expect(await botMessages(last.conversationId)).toHaveLength(3);
  });

  it('a flood of 21 messages at once gets at most maxBotReplies (3) replies: one turn at a time per conversation', async () => {
    const phone = nextPhone();
    const written = await Promise.all(Array.from({ length: 21 }, (_, i) => write(phone, `flood ${i}`)));
    const outcomes = await Promise.all(written.map((w) => settled(w.messageId)));
    const { conversationId } = written[0];
    expect(await botMessages(conversationId)).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === 'sent')).toHaveLength(3);
    expect((await conversation(conversationId)).status).toBe('handed_off');
  });

  it('closes and reopens by hand; forbidden moves are 422 INVALID_STATE; another world is 404', async () => {
    const phone = nextPhone();
    const { conversationId, messageId } = await write(phone, 'Hi');
    await settled(messageId);
    const path = (move: string) => `/api/v1/messaging/conversations/${conversationId}/${move}`;
    const reopenActive = await org.api.post(path('reopen'));
    expect(reopenActive.status).toBe(422);
    expect(reopenActive.body.error.code).toBe('INVALID_STATE');
    const closed = await org.api.post(path('close'));
    expect(closed.status).toBe(200);
    expect(closed.body.data.status).toBe('closed');
    expect(closed.body.data.aiSummary).toBe('2 messages; last from the user: "Hi"');
    expect((await org.api.post(path('close'))).body.error.code).toBe('INVALID_STATE');
    expect((await org.api.post(path('hand-off'))).body.error.code).toBe('INVALID_STATE');
    const reopened = await org.api.post(path('reopen'));
    expect(reopened.status).toBe(200);
    expect(reopened.body.data.status).toBe('active');
    const handedOff = await org.api.post(path('hand-off'));
    expect(handedOff.status).toBe(200);
    expect(handedOff.body.data.status).toBe('handed_off');
    expect((await org.api.post(path('reopen'))).body.data.status).toBe('active');
    // Back to the bot: it answers again.
    const again = await write(phone, 'Still there?');
    expect(await settled(again.messageId)).toMatchObject({ status: 'sent' });

    const testKey = await org.keyWith(['*'], { environment: 'test' });
    expect((await testKey.api.post(path('close'))).status).toBe(404);
    const readOnly = await org.keyWith(['messaging:read']);
    expect((await readOnly.api.post(path('close'))).status).toBe(403);
    expect((await org.api.post('/api/v1/messaging/conversations/not-a-uuid/close')).status).toBe(400);
  });

  it('a STOP is not answered and lists the number on the do-not-call ledger', async () => {
    const phone = nextPhone();
    const stop = await write(phone, 'STOP');
    const outcome = await settled(stop.messageId);
    expect(['OPT_OUT', 'DO_NOT_CALL']).toContain(outcome.reason);
    expect(outcome.status).toBe('skipped');
    expect(await botMessages(stop.conversationId)).toHaveLength(0);
    const listed = await org.api.get('/api/v1/do-not-call', { query: { limit: 100 } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { number: string }) => e.number)).toContain(phone);
    // Listed, the number gets no answer to anything else either.
    const after = await write(phone, 'What are your hours?');
    expect(await settled(after.messageId)).toMatchObject({ status: 'skipped', reason: 'DO_NOT_CALL' });
  });
});
