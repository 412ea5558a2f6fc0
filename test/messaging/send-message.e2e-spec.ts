import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { HOUR_MS, ago, createAccount, createTemplate, eventually, userWrites } from './messaging-fixtures';

const WINDOW_MS = 24 * HOUR_MS;

// Booting and closing an app (own database, queues) and the 55-message test can be slow on a loaded machine.

describe('messaging: sending text and templates (simulator)', () => {
  let t: TestApp;
  let org: TestOrg;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    accountId = (await createAccount(t, org.id)).id;
    await createTemplate(t, accountId, { name: 'reminder', language: 'en_US', body: 'Hi {{1}}, see you {{2}}.' });
    await createTemplate(t, accountId, { name: 'reminder', language: 'es_ES', body: 'Hola {{1}}.' });
    await createTemplate(t, accountId, {
      name: 'named',
      language: 'en_US',
      body: 'Hi {{first_name}}, order {{order}}.',
    });
    await createTemplate(t, accountId, { name: 'plain', language: 'en_US', body: 'We are open again.' });
    await createTemplate(t, accountId, { name: 'pending', language: 'en_US', body: 'x', status: 'PENDING' });
    await createTemplate(t, accountId, { name: 'rejected', language: 'en_US', body: 'x', status: 'REJECTED' });
  });
  afterAll(() => t?.close());

  const send = (body: Record<string, unknown>, api = org.api) => api.post('/api/v1/messaging/messages', body);
  const detail = async (id: string) => (await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data;

  describe('text', () => {
    it('inside the window: 201 {messageId, type}, stored outbound and counted', async () => {
      const id = await userWrites(t, accountId, '+14155551001', 'hi');
      const res = await send({ type: 'text', conversationId: id, text: 'Hello from the clinic' });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ messageId: expect.any(String), type: 'text' });
      const c = await detail(id);
      expect(c).toMatchObject({
        messageCount: 2,
        lastMessagePreview: 'Hello from the clinic',
        lastMessageDirection: 'outbound',
      });
      expect(c.messages[1]).toMatchObject({
        id: res.body.data.messageId,
        direction: 'outbound',
        senderType: 'bot',
        messageType: 'text',
        text: 'Hello from the clinic',
      });
      const account = (await org.api.get('/api/v1/messaging/accounts')).body.data[0];
      expect(account.messagesSent).toBeGreaterThanOrEqual(1);
    });

    it('the simulator reports sent, delivered, then read', async () => {
      const id = await userWrites(t, accountId, '+14155551002', 'hi');
      const res = await send({ type: 'text', conversationId: id, text: 'status please' });
      const seen = new Set<string>();
      await eventually(async () => {
        const m = (await detail(id)).messages.find((x: { id: string }) => x.id === res.body.data.messageId);
        seen.add(m.deliveryStatus);
        return m.deliveryStatus === 'read';
      });
      expect(seen.has('read')).toBe(true);
    });

    it('just inside the 24-hour window is allowed', async () => {
      const id = await userWrites(t, accountId, '+14155551003', 'hi', { timestamp: ago(WINDOW_MS - 10_000) });
      expect((await send({ type: 'text', conversationId: id, text: 'still in time' })).status).toBe(201);
    });

    it('just outside the 24-hour window is 422 SESSION_EXPIRED, and nothing is stored', async () => {
      const id = await userWrites(t, accountId, '+14155551004', 'hi', { timestamp: ago(WINDOW_MS + 1_000) });
      const res = await send({ type: 'text', conversationId: id, text: 'too late' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('SESSION_EXPIRED');
      expect((await detail(id)).messageCount).toBe(1);
    });

    it('a new user message re-opens the window', async () => {
      const id = await userWrites(t, accountId, '+14155551005', 'old', { timestamp: ago(2 * WINDOW_MS) });
      expect((await send({ type: 'text', conversationId: id, text: 'x' })).status).toBe(422);
      await userWrites(t, accountId, '+14155551005', 'new');
      expect((await send({ type: 'text', conversationId: id, text: 'x' })).status).toBe(201);
    });

    it('a backdated (late) user message does not shorten the window', async () => {
      const id = await userWrites(t, accountId, '+14155551006', 'now');
      await userWrites(t, accountId, '+14155551006', 'late arrival', { timestamp: ago(2 * WINDOW_MS) });
      const c = await detail(id);
      expect(Date.parse(c.sessionExpiresAt)).toBeGreaterThan(Date.now() + WINDOW_MS - 60_000);
      expect(c.lastMessagePreview).toBe('now');
      expect((await send({ type: 'text', conversationId: id, text: 'x' })).status).toBe(201);
    });

    it('text is required, at most 4,096 characters', async () => {
      const id = await userWrites(t, accountId, '+14155551007', 'hi');
      expect((await send({ type: 'text', conversationId: id, text: 'a'.repeat(4096) })).status).toBe(201);
      const long = await send({ type: 'text', conversationId: id, text: 'a'.repeat(4097) });
      expect(long.status).toBe(400);
      expect(long.body.error.message).toContain('text');
      const missing = await send({ type: 'text', conversationId: id });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toContain('text');
    });

    it('the simulator rejects a user phone ending in 9: 502 MESSAGING_API_ERROR, nothing stored', async () => {
      const id = await userWrites(t, accountId, '+14155551009', 'hi');
      const res = await send({ type: 'text', conversationId: id, text: 'x' });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('MESSAGING_API_ERROR');
      expect((await detail(id)).messageCount).toBe(1);
    });
  });

  describe('template', () => {
    it('positional placeholders: 201 with the template, rendered text stored, allowed outside the window', async () => {
      const id = await userWrites(t, accountId, '+14155552001', 'hi', { timestamp: ago(3 * WINDOW_MS) });
      const res = await send({
        type: 'template',
        conversationId: id,
        templateName: 'reminder',
        templateLanguage: 'en_US',
        variables: { '1': 'Ann', '2': 'on Tuesday' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        messageId: expect.any(String),
        type: 'template',
        template: { name: 'reminder', language: 'en_US' },
      });
      const last = (await detail(id)).messages.at(-1);
      expect(last).toMatchObject({
        messageType: 'template',
        text: 'Hi Ann, see you on Tuesday.',
        direction: 'outbound',
      });
    });

    it('named placeholders', async () => {
      const id = await userWrites(t, accountId, '+14155552002', 'hi');
      const res = await send({
        type: 'template',
        conversationId: id,
        templateName: 'named',
        templateLanguage: 'en_US',
        variables: { first_name: 'Bob', order: '#42' },
      });
      expect(res.status).toBe(201);
      expect((await detail(id)).messages.at(-1).text).toBe('Hi Bob, order #42.');
    });

    it('a template without placeholders needs no variables', async () => {
      const id = await userWrites(t, accountId, '+14155552003', 'hi');
      const res = await send({
        type: 'template',
        conversationId: id,
        templateName: 'plain',
        templateLanguage: 'en_US',
      });
      expect(res.status).toBe(201);
    });

    it('picks the template in the requested language', async () => {
      const id = await userWrites(t, accountId, '+14155552004', 'hola');
      const res = await send({
        type: 'template',
        conversationId: id,
        templateName: 'reminder',
        templateLanguage: 'es_ES',
        variables: { '1': 'Ana' },
      });
      expect(res.status).toBe(201);
      expect((await detail(id)).messages.at(-1).text).toBe('Hola Ana.');
    });

    it.each([
      ['an unknown name', 'nope', 'en_US'],
      ['a language it does not exist in', 'named', 'fr_FR'],
      ['a PENDING template', 'pending', 'en_US'],
      ['a REJECTED template', 'rejected', 'en_US'],
    ])('%s is 404 TEMPLATE_NOT_FOUND', async (_what, templateName, templateLanguage) => {
      const id = await userWrites(t, accountId, '+14155552005', 'hi');
      const res = await send({ type: 'template', conversationId: id, templateName, templateLanguage });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    });

    it('a template of another account is not found', async () => {
      const other = await createAccount(t, org.id);
      await createTemplate(t, other.id, { name: 'only_there', language: 'en_US', body: 'x' });
      const id = await userWrites(t, accountId, '+14155552006', 'hi');
      const res = await send({
        type: 'template',
        conversationId: id,
        templateName: 'only_there',
        templateLanguage: 'en_US',
      });
      expect(res.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    });

    it.each([
      ['a missing variable', { '1': 'Ann' }],
      ['an extra variable', { '1': 'Ann', '2': 'x', '3': 'y' }],
      ['names instead of positions', { name: 'Ann', when: 'x' }],
      ['no variables at all', undefined],
    ])('the simulator rejects %s: 502 MESSAGING_API_ERROR', async (_what, variables) => {
      const id = await userWrites(t, accountId, '+14155552007', 'hi');
      const before = (await detail(id)).messageCount;
      const res = await send({
        type: 'template',
        conversationId: id,
        templateName: 'reminder',
        templateLanguage: 'en_US',
        variables,
      });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('MESSAGING_API_ERROR');
      expect((await detail(id)).messageCount).toBe(before);
    });

    it('variables must be an object of strings', async () => {
      const id = await userWrites(t, accountId, '+14155552008', 'hi');
      for (const variables of [['Ann'], { '1': 5 }, 'Ann']) {
        const res = await send({
          type: 'template',
          conversationId: id,
          templateName: 'reminder',
          templateLanguage: 'en_US',
          variables,
        });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain('variables');
      }
    });

    it('templateName and templateLanguage are required', async () => {
      const id = await userWrites(t, accountId, '+14155552008', 'hi');
      const res = await send({ type: 'template', conversationId: id });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('templateName');
      expect(res.body.error.message).toContain('templateLanguage');
    });
  });

  describe('shared rules', () => {
    it('an unknown or missing type is 400 naming type', async () => {
      const id = await userWrites(t, accountId, '+14155553001', 'hi');
      for (const body of [
        { type: 'location', conversationId: id },
        { conversationId: id, text: 'x' },
      ]) {
        const res = await send(body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.message).toContain('type');
      }
      const notObject = await org.api.post('/api/v1/messaging/messages', '[1,2]');
      expect(notObject.status).toBe(400);
    });

    it("a missing conversation, or another organization's, is 404 NOT_FOUND", async () => {
      const unknown = await send({ type: 'text', conversationId: '0190d1a4-0000-7000-8000-000000000000', text: 'x' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
      const id = await userWrites(t, accountId, '+14155553002', 'hi');
      const other = await createOrg(t);
      const res = await send({ type: 'text', conversationId: id, text: 'x' }, other.api);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      const malformed = await send({ type: 'text', conversationId: 'abc', text: 'x' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toContain('conversationId');
    });

    it.each(['disconnected', 'error', 'pending_setup'])(
      'an account that is %s is no active integration: 404 NOT_FOUND for text and template',
      async (status) => {
        const account = await createAccount(t, org.id, { status });
        await createTemplate(t, account.id, { name: 'plain', language: 'en_US', body: 'x' });
        const id = await userWrites(t, account.id, '+14155553003', 'hi');
        const text = await send({ type: 'text', conversationId: id, text: 'x' });
        expect(text.status).toBe(404);
        expect(text.body.error.code).toBe('NOT_FOUND');
        const template = await send({
          type: 'template',
          conversationId: id,
          templateName: 'plain',
          templateLanguage: 'en_US',
        });
        expect(template.status).toBe(404);
        expect(template.body.error.code).toBe('NOT_FOUND');
      },
    );

    it('sending needs messaging:write', async () => {
      const id = await userWrites(t, accountId, '+14155553004', 'hi');
      const reader = await org.keyWith(['messaging:read']);
      const res = await send({ type: 'text', conversationId: id, text: 'x' }, reader.api);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain('messaging:write');
    });

    it('an outbound message moves the conversation to the top of the list', async () => {
      const older = await userWrites(t, accountId, '+14155553005', 'hi', { timestamp: ago(HOUR_MS) });
      await userWrites(t, accountId, '+14155553006', 'hi', { timestamp: ago(HOUR_MS / 2) });
      await send({ type: 'text', conversationId: older, text: 'bump' });
      const first = (await org.api.get('/api/v1/messaging/conversations', { query: { limit: 1 } })).body.data[0];
      expect(first.id).toBe(older);
    });
  });
});
