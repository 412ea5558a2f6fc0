import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { HOUR_MS, ago, createAccount, userWrites } from './messaging-fixtures';

// Booting and closing an app (own database, queues) and the 55-message test can be slow on a loaded machine.

describe('messaging: accounts, inbound messages and conversations', () => {
  let t: TestApp;
  let org: TestOrg;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    accountId = (
      await createAccount(t, org.id, { wabaId: 'waba-1', phoneNumberId: 'pn-conv-1', qualityRating: 'GREEN' })
    ).id;
  });
  afterAll(() => t?.close());

  it("lists the organization's accounts with their counters, not paginated", async () => {
    const res = await org.api.get('/api/v1/messaging/accounts');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toBeUndefined();
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: accountId,
        status: 'active',
        statusMessage: null,
        wabaId: 'waba-1',
        phoneNumberId: 'pn-conv-1',
        displayPhoneNumber: '+1 555-010-0100',
        verifiedName: 'Acme Dental',
        qualityRating: 'GREEN',
        messagesSent: 0,
        messagesReceived: 0,
        lastMessageAt: null,
      }),
    ]);
  });

  it('an inbound message creates the conversation and the contact, opens the 24-hour window and counts', async () => {
    const at = ago(HOUR_MS);
    const conversationId = await userWrites(t, accountId, '+14155550101', 'Can I book Tuesday?', {
      name: 'Ann Lee',
      timestamp: at,
    });
    const res = await org.api.get(`/api/v1/messaging/conversations/${conversationId}`);
    expect(res.status).toBe(200);
    const c = res.body.data;
    expect(c).toMatchObject({
      id: conversationId,
      status: 'active',
      waUserPhone: '+14155550101',
      waUserName: 'Ann Lee',
      integrationId: accountId,
      lastMessagePreview: 'Can I book Tuesday?',
      lastMessageDirection: 'inbound',
      lastUserMessageAt: at,
      sessionExpiresAt: new Date(Date.parse(at) + 24 * HOUR_MS).toISOString(),
      messageCount: 1,
      aiSummary: null,
    });
    expect(c.messages).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        senderType: 'user',
        messageType: 'text',
        text: 'Can I book Tuesday?',
        mediaUrl: null,
        mediaCaption: null,
        deliveryStatus: null,
        timestamp: at,
      }),
    ]);
    const contact = await t.db.query(
      'SELECT id, title, phone FROM contacts WHERE organization_id = $1 AND phone = $2',
      [org.id, '+14155550101'],
    );
    expect(contact.rows).toEqual([{ id: c.contactId, title: 'Ann Lee', phone: '+14155550101' }]);
    const created = await t.db.query(
      "SELECT data->>'contactId' AS id FROM outbox_events WHERE organization_id = $1 AND type = 'contact.created'",
      [org.id],
    );
    expect(created.rows).toEqual([{ id: c.contactId }]);
    const account = (await org.api.get('/api/v1/messaging/accounts')).body.data[0];
    expect(account).toMatchObject({ messagesReceived: 1, lastMessageAt: at });
  });

  it('a second message from the same user joins the same conversation and the same contact', async () => {
    const first = await userWrites(t, accountId, '+14155550102', 'one');
    const second = await userWrites(t, accountId, '+14155550102', 'two');
    expect(second).toBe(first);
    const c = (await org.api.get(`/api/v1/messaging/conversations/${first}`)).body.data;
    expect(c).toMatchObject({ messageCount: 2, lastMessagePreview: 'two' });
    expect(c.messages.map((m: { text: string }) => m.text)).toEqual(['one', 'two']);
    const contacts = await t.db.query(
      'SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1 AND phone = $2',
      [org.id, '+14155550102'],
    );
    expect(contacts.rows[0].n).toBe(1);
  });

  it('links an existing contact with the same phone instead of creating another', async () => {
    const other = await createOrg(t);
    const account = await createAccount(t, other.id);
    const first = await userWrites(t, account.id, '+14155550103', 'hi');
    // A second account of the same organization talking to the same person links the same contact.
    const secondAccount = await createAccount(t, other.id);
    const second = await userWrites(t, secondAccount.id, '+14155550103', 'hi again');
    expect(second).not.toBe(first);
    const [a, b] = await Promise.all(
      [first, second].map(async (id) => (await other.api.get(`/api/v1/messaging/conversations/${id}`)).body.data),
    );
    expect(a.contactId).toBe(b.contactId);
  });

  it('ignores a second delivery of the same provider message id', async () => {
    const id = await userWrites(t, accountId, '+14155550104', 'once', { messageId: 'wamid.dup-1' });
    const before = (await org.api.get('/api/v1/messaging/accounts')).body.data[0].messagesReceived;
    const again = await userWrites(t, accountId, '+14155550104', 'once', { messageId: 'wamid.dup-1' });
    expect(again).toBe(id);
    const c = (await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data;
    expect(c.messageCount).toBe(1);
    expect(c.messages).toHaveLength(1);
    expect((await org.api.get('/api/v1/messaging/accounts')).body.data[0].messagesReceived).toBe(before);
  });

  it('shows only the 50 most recent messages, oldest first', async () => {
    const base = Date.now() - 2 * HOUR_MS;
    let id = '';
    for (let i = 1; i <= 55; i++) {
      id = await userWrites(t, accountId, '+14155550105', `m${i}`, {
        timestamp: new Date(base + i * 1000).toISOString(),
      });
    }
    const c = (await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data;
    expect(c.messageCount).toBe(55);
    expect(c.messages).toHaveLength(50);
    expect(c.messages[0].text).toBe('m6');
    expect(c.messages[49].text).toBe('m55');
  });

  it('lists conversations by most recent activity and pages with the cursor', async () => {
    const fresh = await createOrg(t);
    const account = await createAccount(t, fresh.id);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await userWrites(t, account.id, `+1415555020${i}`, `c${i}`, { timestamp: ago((10 - i) * 60_000) }));
    }
    // The oldest thread gets a new message and moves to the top.
    await userWrites(t, account.id, '+14155550200', 'back again');
    const expected = [ids[0], ids[4], ids[3], ids[2], ids[1]];

    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await fresh.api.get('/api/v1/messaging/conversations', { query: { limit: 2, cursor } });
      expect(res.status).toBe(200);
      expect(res.body.pagination.pageSize).toBe(2);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      if (!res.body.pagination.hasMore) {
        expect(res.body.pagination.cursor).toBeNull();
        break;
      }
      cursor = res.body.pagination.cursor;
    }
    expect(seen).toEqual(expected);
  });

  it('filters by status, and a cursor is bound to its filter', async () => {
    const fresh = await createOrg(t);
    const account = await createAccount(t, fresh.id);
    const a = await userWrites(t, account.id, '+14155550301', 'a');
    const b = await userWrites(t, account.id, '+14155550302', 'b');
    const c = await userWrites(t, account.id, '+14155550303', 'c');
    // No API moves a conversation to handed_off or closed yet (dashboard side); set that fixture directly.
    await t.db.query("UPDATE conversations SET status = 'handed_off' WHERE id = $1", [b]);
    await t.db.query("UPDATE conversations SET status = 'closed' WHERE id = $1", [c]);

    const list = async (status?: string) =>
      (await fresh.api.get('/api/v1/messaging/conversations', { query: { status } })).body.data.map(
        (x: { id: string }) => x.id,
      );
    expect(await list('active')).toEqual([a]);
    expect(await list('handed_off')).toEqual([b]);
    expect(await list('closed')).toEqual([c]);
    expect(await list()).toEqual([c, b, a]);

    const page = await fresh.api.get('/api/v1/messaging/conversations', { query: { limit: 1 } });
    const reused = await fresh.api.get('/api/v1/messaging/conversations', {
      query: { limit: 1, status: 'active', cursor: page.body.pagination.cursor },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('INVALID_CURSOR');

    const bad = await fresh.api.get('/api/v1/messaging/conversations', { query: { status: 'open' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.message).toContain('status');
  });

  it('a user writing into a closed conversation re-opens it', async () => {
    const id = await userWrites(t, accountId, '+14155550106', 'first');
    await t.db.query("UPDATE conversations SET status = 'closed' WHERE id = $1", [id]); // fixture, as above
    await userWrites(t, accountId, '+14155550106', 'second');
    expect((await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data.status).toBe('active');
  });

  it('another organization sees none of it (404, empty lists)', async () => {
    const id = await userWrites(t, accountId, '+14155550107', 'private');
    const other = await createOrg(t);
    expect((await other.api.get(`/api/v1/messaging/conversations/${id}`)).status).toBe(404);
    expect((await other.api.get('/api/v1/messaging/conversations')).body.data).toEqual([]);
    expect((await other.api.get('/api/v1/messaging/accounts')).body.data).toEqual([]);
  });

  it('an unknown conversation is 404 NOT_FOUND and a malformed id 400', async () => {
    const missing = await org.api.get('/api/v1/messaging/conversations/0190d1a4-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const malformed = await org.api.get('/api/v1/messaging/conversations/nope');
    expect(malformed.status).toBe(400);
  });

  it('reading needs messaging:read', async () => {
    const key = await org.keyWith(['contacts:read']);
    const res = await key.api.get('/api/v1/messaging/conversations');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await key.api.get('/api/v1/messaging/accounts')).status).toBe(403);
  });

  it('admin API validates its input', async () => {
    const badStatus = await t.admin.post(`/admin/v1/organizations/${org.id}/messaging-accounts`, {
      displayPhoneNumber: '+1 555',
      verifiedName: 'x',
      status: 'sleeping',
    });
    expect(badStatus.status).toBe(400);
    const duplicate = await t.admin.post(`/admin/v1/organizations/${org.id}/messaging-accounts`, {
      displayPhoneNumber: '+1 555',
      verifiedName: 'x',
      phoneNumberId: 'pn-conv-1',
    });
    expect(duplicate.status).toBe(409);
    const unknownAccount = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId: '0190d1a4-0000-7000-8000-000000000000',
      from: '+14155550108',
      text: 'hi',
    });
    expect(unknownAccount.status).toBe(404);
    const badPhone = await t.admin.post('/admin/v1/simulator/inbound-messages', { accountId, from: '12', text: 'hi' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.error.message).toContain('from');
  });
});
