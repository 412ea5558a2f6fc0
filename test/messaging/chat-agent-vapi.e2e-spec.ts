import { VAPI, expectCapturedFixture } from '../support/captured-fixture';
import { TestOrg, createOrg } from '../support/factory';
import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp } from '../support/test-app';
import { FakeVapi } from '../voice/fake-vapi';
import { startWithVapi } from '../voice/voice-fixtures';
import { captured as capturedCreateChat } from '../voice/fixtures/create-chat.fixture';
import { createAccount, eventually } from './messaging-fixtures';

/** The chat agent of a live account on Vapi's chat API, against the strict fake Vapi. */
describe('messaging: the chat agent on Vapi', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: TestOrg;
  let accountId: string;
  let caseId: string;
  let phoneSeq = 0;
  const nextPhone = () => `+1415557${String(1000 + phoneSeq++).padStart(4, '0')}`;

  const write = async (phone: string, text: string) => {
    const res = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId,
      from: phone,
      name: 'Ada',
      text,
    });
    expect(res.status).toBe(201);
    return res.body.data as { conversationId: string; messageId: string };
  };
  const settled = (messageId: string, timeoutMs = 8000) =>
    eventually(async () => {
      const { rows } = await t.db.query(`SELECT status, reason FROM chat_replies WHERE inbound_message_id = $1`, [
        messageId,
      ]);
      return rows[0]?.status !== 'replying' && rows[0];
    }, timeoutMs);
  const messages = async (conversationId: string) =>
    (await org.api.get(`/api/v1/messaging/conversations/${conversationId}`)).body.data.messages as Array<{
      senderType: string;
      text: string;
    }>;

  beforeAll(async () => {
    ({ fake, t } = await startWithVapi({ CHAT_AGENT_RETRY_BASE_MS: '50' }));
    org = await createOrg(t);
    accountId = (await createAccount(t, org.id, { phoneNumberId: 'pn-chat-vapi' })).id;
    const kase = await org.api.post('/api/v1/cases', {
      title: 'Front desk',
      prompt: 'You answer {{name}} for Acme Dental.',
      variables: [{ name: 'name', source: 'contact.title' }],
    });
    expect(kase.status).toBe(201);
    caseId = kase.body.data.id;
    const assistant = await org.api.post('/api/v1/assistants/outbound', {
      name: 'Desk',
      voice: { provider: '11labs', voiceId: 'rachel' },
      model: { provider: 'openai', model: 'gpt-4o', temperature: 0.2 },
    });
    expect(assistant.status).toBe(201);
    const put = await t.admin.put(`/admin/v1/messaging-accounts/${accountId}/chat-agent`, {
      enabled: true,
      caseId,
      assistantConfigId: assistant.body.data.id,
    });
    expect(put.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it("answers with the case's resolved prompt and the assistant's model, carrying context by previousChatId", async () => {
    const phone = nextPhone();
    const first = await write(phone, 'Do you open on Saturday?');
    expect(await settled(first.messageId)).toMatchObject({ status: 'sent' });
    const [firstChat] = fake.chatRequests();
    // The fake validated the body as the SDK's CreateChatDto; the committed fixture type-checks as one too.
    await expectCapturedFixture(
      'test/voice/fixtures/create-chat.fixture.ts',
      VAPI('CreateChatDto'),
      capturedCreateChat,
      firstChat.body,
    );
    expect(firstChat.body).toEqual({
      assistant: {
        model: {
          provider: 'openai',
          model: 'gpt-4o',
          temperature: 0.2,
          messages: [{ role: 'system', content: 'You answer Ada for Acme Dental.' }],
        },
      },
      input: 'Do you open on Saturday?',
    });

    const second = await write(phone, 'And Sunday?');
    expect(await settled(second.messageId)).toMatchObject({ status: 'sent' });
    const chats = fake.chatRequests().filter((r) => r.body.input === 'And Sunday?');
    expect(chats).toHaveLength(1);
    expect(chats[0].body.previousChatId).toBe(firstChat.accepted);
    const bot = (await messages(first.conversationId)).filter((m) => m.senderType === 'bot').map((m) => m.text);
    expect(bot).toEqual(['Vapi heard (turn 1): "Do you open on Saturday?"', 'Vapi heard (turn 2): "And Sunday?"']);
    // The summary comes from the platform too, bounded.
    const summary = (await org.api.get(`/api/v1/messaging/conversations/${first.conversationId}`)).body.data.aiSummary;
    expect(summary).toMatch(/^Vapi heard \(turn 1\): "user: Do you open on Saturday\?/);
    expect(summary.length).toBeLessThanOrEqual(500);
  });

  it("Liquid in a user's profile name reaches Vapi's chat prompt as text it prints, never as a tag it runs", async () => {
    const loop = '{% for i in (1..100000) %}x{% endfor %}{{ secret }}';
    const res = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId,
      from: nextPhone(),
      name: loop,
      text: 'Liquid name',
    });
    expect(res.status).toBe(201);
    expect(await settled(res.body.data.messageId)).toMatchObject({ status: 'sent' });
    const [chat] = fake.chatRequests().filter((r) => r.body.input === 'Liquid name');
    expect(chat.body.assistant?.model?.messages).toEqual([
      {
        role: 'system',
        content:
          'You answer {{ "{%" }} for i in (1..100000) %}x{{ "{%" }} endfor %}{{ "{{" }} secret }} for Acme Dental.',
      },
    ]);
  });

  it('a platform that keeps failing leaves the message stored and the conversation active until the retries end, then hands off', async () => {
    const phone = nextPhone();
    // Every attempt of the answer fails (the first and the three retries).
    fake.failChatsWithInput('Hello?', 500, 500, 500, 500);
    const asked = await write(phone, 'Hello?');
    const during = await org.api.get(`/api/v1/messaging/conversations/${asked.conversationId}`);
    expect(during.body.data.messages.map((m: { text: string }) => m.text)).toEqual(['Hello?']);
    const outcome = await settled(asked.messageId, 15000);
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.reason).toMatch(/^CHAT_PLATFORM_ERROR: 500/);
    const after = (await org.api.get(`/api/v1/messaging/conversations/${asked.conversationId}`)).body.data;
    expect(after.status).toBe('handed_off');
    expect(after.messages.filter((m: { senderType: string }) => m.senderType === 'bot')).toHaveLength(0);
    const { rows } = await t.db.query(`SELECT attempts FROM chat_replies WHERE inbound_message_id = $1`, [
      asked.messageId,
    ]);
    expect(rows[0].attempts).toBe(4);
  });

  it('recovers when a retry succeeds: one reply, conversation still active', async () => {
    const phone = nextPhone();
    fake.failChatsWithInput('Are you there?', 503);
    const asked = await write(phone, 'Are you there?');
    expect(await settled(asked.messageId)).toMatchObject({ status: 'sent' });
    const c = (await org.api.get(`/api/v1/messaging/conversations/${asked.conversationId}`)).body.data;
    expect(c.status).toBe('active');
    expect(c.messages.filter((m: { senderType: string }) => m.senderType === 'bot')).toHaveLength(1);
  });

  it('a test account answers on the simulator, never on Vapi', async () => {
    const testAccount = (await createAccount(t, org.id, { phoneNumberId: 'pn-chat-vapi-test', livemode: false })).id;
    expect(
      (await t.admin.put(`/admin/v1/messaging-accounts/${testAccount}/chat-agent`, { enabled: true })).status,
    ).toBe(200);
    const before = fake.chatRequests().length;
    const res = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId: testAccount,
      from: nextPhone(),
      name: 'Ada',
      text: 'Test me',
    });
    expect(await settled(res.body.data.messageId)).toMatchObject({ status: 'sent' });
    const testKey = await org.keyWith(['*'], { environment: 'test' });
    const c = (await testKey.api.get(`/api/v1/messaging/conversations/${res.body.data.conversationId}`)).body.data;
    expect(c.messages.map((m: { text: string }) => m.text)).toEqual(['Test me', 'Thanks Ada, you said: "Test me"']);
    expect(fake.chatRequests()).toHaveLength(before);
  });

  // Last: it stops the first service.
  it('an agent keeps the platform it was first set on: restarted with VOICE_PROVIDER=simulator, Vapi answers it', async () => {
    const livePut = async (admin: HttpClient, id: string) =>
      (await admin.put(`/admin/v1/messaging-accounts/${id}/chat-agent`, { enabled: true })).status;
    await t.app.close();
    // Vapi's credentials kept: only the platform for agents set from now on changes.
    const peer = await t.startPeer({ VOICE_PROVIDER: 'simulator' });
    const admin = new HttpClient(peer.baseUrl, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const api = new HttpClient(peer.baseUrl, { 'x-api-key': org.key });
    const inbound = async (id: string, text: string) => {
      const res = await admin.post('/admin/v1/simulator/inbound-messages', {
        accountId: id,
        from: nextPhone(),
        name: 'Ada',
        text,
      });
      expect(res.status).toBe(201);
      expect(await settled(res.body.data.messageId)).toMatchObject({ status: 'sent' });
      const conversation = await api.get(`/api/v1/messaging/conversations/${res.body.data.conversationId}`);
      const said = conversation.body.data.messages as Array<{ senderType: string; text: string }>;
      return said.filter((m) => m.senderType === 'bot').map((m) => m.text);
    };

    // Set again after the restart: a new setting keeps the platform the agent was first set on.
    expect(await livePut(admin, accountId)).toBe(200);
    expect(await inbound(accountId, 'Still open?')).toEqual([
      expect.stringMatching(/^Vapi heard \(turn \d+\): "Still open\?"$/),
    ]);
    expect(fake.chatRequests().filter((r) => r.body.input === 'Still open?')).toHaveLength(1);

    const res = await admin.post(`/admin/v1/organizations/${org.id}/messaging-accounts`, {
      displayPhoneNumber: '+1 555-010-0199',
      verifiedName: 'Acme Dental',
      phoneNumberId: 'pn-chat-vapi-later',
    });
    expect(res.status).toBe(201);
    expect(await livePut(admin, res.body.data.id)).toBe(200);
    expect(await inbound(res.body.data.id, 'New here')).toEqual(['Thanks Ada, you said: "New here"']);
    expect(fake.chatRequests().filter((r) => r.body.input === 'New here')).toHaveLength(0);
  });
});
