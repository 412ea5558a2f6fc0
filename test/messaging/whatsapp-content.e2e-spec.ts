import { randomBytes } from 'node:crypto';
import { WHATSAPP_SEND, expectCapturedFixture } from '../support/captured-fixture';
import { captured as capturedDocument } from './fixtures/send-document.fixture';
import { captured as capturedTemplateHeaderButtons } from './fixtures/send-template-header-buttons.fixture';
import { withStableMessageId } from './fake-graph-api';
import { createAccount, createTemplate } from './messaging-fixtures';
import { messageChange, templateStatusChange, webhookOf } from './whatsapp-webhooks';
import { PHONE_NUMBER_ID, PROCESS_TOKEN, WABA_ID, useWhatsAppWorld } from './whatsapp-world';

/**
 * What travels on WhatsApp against the strict fake Graph API: every inbound kind kept with its payload, media
 * streamed through our route, users known only by id, templates synced, outbound media and template parameters.
 */
describe('messaging: WhatsApp message kinds, media and templates (strict fake Graph API)', () => {
  const w = useWhatsAppWorld();

  const threadsOf = async (match: (c: { waUserPhone: string; waUserId: string | null }) => boolean) =>
    (await w.org.api.get('/api/v1/messaging/conversations', { query: { limit: 100 } })).body.data.filter(match);
  const inbound = (
    user: { phone?: string; userId?: string },
    message: Record<string, unknown> & { id: string; type: string },
  ) => w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, user, message)));

  it('a user who changes number (system user_changed_number) keeps one thread: the next message continues it', async () => {
    const [before, after] = ['14155558901', '14155558902'];
    expect(await inbound({ phone: before }, { id: 'wamid.sys.1', type: 'text', text: { body: 'hi' } })).toBe(200);
    const change = {
      id: 'wamid.sys.2',
      type: 'system',
      system: { body: `User Ann Lee changed from ${before} to ${after}`, wa_id: after, type: 'user_changed_number' },
    };
    expect(await inbound({ phone: before }, change)).toBe(200);
    expect(await inbound({ phone: after }, { id: 'wamid.sys.3', type: 'text', text: { body: 'new phone' } })).toBe(200);

    const threads = await threadsOf((c) => [`+${before}`, `+${after}`].includes(c.waUserPhone));
    expect(threads).toHaveLength(1);
    expect(threads[0].waUserPhone).toBe(`+${after}`);
    const detail = (await w.org.api.get(`/api/v1/messaging/conversations/${threads[0].id}`)).body.data;
    expect(detail.messageCount).toBe(3);
    expect(detail.messages.map((m: { text: string }) => m.text)).toEqual(
      expect.arrayContaining(['hi', 'new phone', change.system.body]),
    );
    expect(detail.messages.find((m: { messageType: string }) => m.messageType === 'system')).toMatchObject({
      direction: 'inbound',
      text: change.system.body,
      payload: { kind: 'system', systemType: 'user_changed_number', newPhone: `+${after}`, newUserId: null },
    });
  });

  it('a user whose business-scoped id changes keeps one thread under the new id', async () => {
    const [before, after] = ['US.2000000000000000000001', 'US.2000000000000000000002'];
    expect(await inbound({ userId: before }, { id: 'wamid.newid.1', type: 'text', text: { body: 'hello' } })).toBe(200);
    const change = {
      id: 'wamid.newid.2',
      type: 'system',
      system: { body: 'User Ann Lee changed their user id', user_id: after, type: 'user_changed_user_id' },
    };
    expect(await inbound({ userId: before }, change)).toBe(200);
    expect(await inbound({ userId: after }, { id: 'wamid.newid.3', type: 'text', text: { body: 'still me' } })).toBe(
      200,
    );
    const threads = await threadsOf((c) => [before, after].includes(c.waUserId ?? ''));
    expect(threads).toHaveLength(1);
    expect(threads[0].waUserId).toBe(after);
    expect((await w.org.api.get(`/api/v1/messaging/conversations/${threads[0].id}`)).body.data.messageCount).toBe(3);
  });

  it('an inbound image and a location are kept with their kind and payload; the image streams through our route', async () => {
    const bytes = randomBytes(700);
    w.graph.addMedia('media-image-1', bytes, 'image/jpeg');
    const user = { phone: '14155558801', name: 'Pat' };
    const image = {
      id: 'wamid.img.1',
      type: 'image',
      image: { id: 'media-image-1', mime_type: 'image/jpeg', sha256: 'abc', caption: 'My receipt' },
    };
    const location = {
      id: 'wamid.loc.1',
      type: 'location',
      location: { latitude: 52.52, longitude: 13.405, name: 'Office', address: 'Main St 1' },
    };
    expect(await w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, user, image)))).toBe(200);
    expect(await w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, user, location)))).toBe(200);
    const conversation = (
      await w.org.api.get('/api/v1/messaging/conversations', { query: { limit: 100 } })
    ).body.data.find((c: { waUserPhone: string }) => c.waUserPhone === '+14155558801');
    const messages = (await w.org.api.get(`/api/v1/messaging/conversations/${conversation.id}`)).body.data.messages;
    const img = messages.find((m: { messageType: string }) => m.messageType === 'image');
    expect(img).toMatchObject({
      text: 'My receipt',
      mediaCaption: 'My receipt',
      mediaId: 'media-image-1',
      mediaUrl: `/api/v1/messaging/messages/${img.id}/media`,
      payload: { kind: 'media', mimeType: 'image/jpeg', sha256: 'abc', filename: null, animated: null },
    });
    expect(messages.find((m: { messageType: string }) => m.messageType === 'location')).toMatchObject({
      text: 'Office, Main St 1',
      mediaUrl: null,
      payload: {
        kind: 'location',
        latitude: 52.52,
        longitude: 13.405,
        name: 'Office',
        address: 'Main St 1',
        url: null,
      },
    });

    const file = await fetch(`${w.t.baseUrl}${img.mediaUrl}`, { headers: { 'x-api-key': w.org.key } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('content-disposition')).toBe('attachment');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    const fetched = w.graph.requests.filter(
      (r) => r.url.includes('media-image-1') || r.url === '/media-files/media-image-1',
    );
    expect(fetched.map((r) => r.headers.authorization)).toEqual([`Bearer ${PROCESS_TOKEN}`, `Bearer ${PROCESS_TOKEN}`]);
    await w.receiver.waitFor(() => w.eventsFor(img.id).some((e: { event: string }) => e.event === 'message.received'));
    expect(w.validate(w.eventsFor(img.id)[0])).toBe(true);

    // A message without media has none to fetch.
    const kept = messages.find((m: { messageType: string }) => m.messageType === 'location');
    const none = await fetch(`${w.t.baseUrl}/api/v1/messaging/messages/${kept.id}/media`, {
      headers: { 'x-api-key': w.org.key },
    });
    expect(none.status).toBe(404);

    // Bounded: a file over WHATSAPP_MEDIA_MAX_BYTES (1000 here) is refused, not streamed.
    w.graph.addMedia('media-big', randomBytes(1001), 'video/mp4');
    const big = { id: 'wamid.vid.1', type: 'video', video: { id: 'media-big', mime_type: 'video/mp4', sha256: 'x' } };
    await w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, user, big)));
    const bigId = (await w.t.db.query("SELECT id FROM messages WHERE media_id = 'media-big'")).rows[0].id;
    const refused = await fetch(`${w.t.baseUrl}/api/v1/messaging/messages/${bigId}/media`, {
      headers: { 'x-api-key': w.org.key },
    });
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.code).toBe('MEDIA_TOO_LARGE');
  });

  it("a media location on a host that is neither Meta's nor the Graph API's is never called with the token", async () => {
    w.graph.addMedia('media-elsewhere', randomBytes(100), 'image/jpeg');
    // The same fake under another name: the address rules (WEBHOOK_ALLOW_INSECURE here) would let it through.
    w.graph.mediaOrigin = w.graph.url.replace('127.0.0.1', 'localhost');
    try {
      const image = {
        id: 'wamid.elsewhere.1',
        type: 'image',
        image: { id: 'media-elsewhere', mime_type: 'image/jpeg' },
      };
      const change = messageChange(PHONE_NUMBER_ID, { phone: '14155558809' }, image);
      expect(await w.graph.sendWebhook(webhookOf(WABA_ID, change))).toBe(200);
      const id = (await w.t.db.query("SELECT id FROM messages WHERE media_id = 'media-elsewhere'")).rows[0].id;
      const res = await fetch(`${w.t.baseUrl}/api/v1/messaging/messages/${id}/media`, {
        headers: { 'x-api-key': w.org.key },
      });
      expect(res.status).toBe(502);
      expect((await res.json()).error).toMatchObject({ code: 'MESSAGING_API_ERROR' });
      // Meta was asked where the file is; the location it named was not called.
      expect(w.graph.requests.some((r) => r.url === '/v25.0/media-elsewhere')).toBe(true);
      expect(w.graph.requests.some((r) => r.url === '/media-files/media-elsewhere')).toBe(false);
    } finally {
      w.graph.mediaOrigin = undefined;
    }
  });

  it('a client hanging up mid-download closes the provider download, and the service keeps serving', async () => {
    w.graph.addEndlessMedia('media-slow', randomBytes(200), 'video/mp4');
    const slow = { id: 'wamid.slow.1', type: 'video', video: { id: 'media-slow', mime_type: 'video/mp4' } };
    expect(
      await w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, { phone: '14155558803' }, slow))),
    ).toBe(200);
    const id = (await w.t.db.query("SELECT id FROM messages WHERE media_id = 'media-slow'")).rows[0].id;
    const client = new AbortController();
    const res = await fetch(`${w.t.baseUrl}/api/v1/messaging/messages/${id}/media`, {
      headers: { 'x-api-key': w.org.key },
      signal: client.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    client.abort();

    // The provider sees its connection closed: nothing is left to fail later on its own (its request timeout).
    await w.graph.downloadClosed('media-slow');
    const after = await w.org.api.get('/api/v1/messaging/conversations', { query: { limit: 1 } });
    expect(after.status).toBe(200);
  });

  it.each([
    ['audio', { audio: { id: 'm-a', mime_type: 'audio/ogg' } }, { kind: 'media', mimeType: 'audio/ogg' }, ''],
    [
      'document',
      { document: { id: 'm-d', mime_type: 'application/pdf', sha256: 's', filename: 'a.pdf', caption: 'Invoice' } },
      { kind: 'media', filename: 'a.pdf' },
      'Invoice',
    ],
    [
      'sticker',
      { sticker: { id: 'm-s', mime_type: 'image/webp', sha256: 's', animated: true } },
      { kind: 'media', animated: true },
      '',
    ],
    [
      'contacts',
      { contacts: [{ name: { formatted_name: 'Bo Li' }, phones: [{ phone: '+1 415 555 0100' }] }] },
      { kind: 'contacts', contacts: [{ name: 'Bo Li', phones: ['+1 415 555 0100'], emails: [] }] },
      'Bo Li',
    ],
    [
      'reaction',
      { reaction: { message_id: 'wamid.out.1', emoji: '👍' } },
      { kind: 'reaction', providerMessageId: 'wamid.out.1', emoji: '👍' },
      '👍',
    ],
    [
      'interactive',
      { interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } } },
      { kind: 'reply', replyType: 'button_reply', id: 'yes', title: 'Yes please' },
      'Yes please',
    ],
    [
      'button',
      { button: { text: 'Stop promotions', payload: 'STOP_PROMO' } },
      { kind: 'reply', replyType: 'button', id: 'STOP_PROMO' },
      'Stop promotions',
    ],
    [
      'unsupported',
      { errors: [{ code: 131051, title: 'Message type unknown' }] },
      { kind: 'unsupported', errorCode: 131051 },
      '',
    ],
  ])('an inbound %s is kept with its kind and typed payload', async (type, body, payload, text) => {
    const id = `wamid.kind.${type}`;
    await w.graph.sendWebhook(
      webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, { phone: '14155558802' }, { id, type, ...body })),
    );
    const row = (await w.t.db.query('SELECT id, conversation_id FROM messages WHERE provider_message_id = $1', [id]))
      .rows[0];
    expect(await w.messageOf(row.conversation_id, row.id)).toMatchObject({ messageType: type, text, payload });
  });

  it("a reply's context and a click-to-WhatsApp referral are kept on the message, in the API and the event", async () => {
    const user = { phone: '14155558811', name: 'Rae' };
    const reply = {
      id: 'wamid.ctx.1',
      type: 'text',
      text: { body: 'Yes, that one' },
      context: { from: '15550001111', id: 'wamid.ours.1' },
    };
    const fromAd = {
      id: 'wamid.ref.1',
      type: 'text',
      text: { body: 'I saw your ad' },
      referral: {
        source_url: 'https://fb.me/ad-1',
        source_id: '1203',
        source_type: 'ad',
        headline: 'Summer sale',
        body: 'Half price this week',
        media_type: 'image',
        image_url: 'https://scontent.xx.fbcdn.net/v/ad.jpg',
        ctwa_clid: 'ARAkLkA8rmlFeiCktEJQ',
      },
    };
    for (const message of [reply, fromAd]) {
      expect(await w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, user, message)))).toBe(200);
    }
    const conversation = (
      await w.org.api.get('/api/v1/messaging/conversations', { query: { limit: 100 } })
    ).body.data.find((c: { waUserPhone: string }) => c.waUserPhone === '+14155558811');
    const messages = (await w.org.api.get(`/api/v1/messaging/conversations/${conversation.id}`)).body.data.messages;
    const replied = messages.find((m: { text: string }) => m.text === 'Yes, that one');
    expect(replied).toMatchObject({
      context: { providerMessageId: 'wamid.ours.1', from: '15550001111', forwarded: false, frequentlyForwarded: false },
      referral: null,
    });
    const referred = messages.find((m: { text: string }) => m.text === 'I saw your ad');
    expect(referred).toMatchObject({
      context: null,
      referral: {
        sourceType: 'ad',
        sourceId: '1203',
        sourceUrl: 'https://fb.me/ad-1',
        headline: 'Summer sale',
        body: 'Half price this week',
        mediaType: 'image',
        ctwaClid: 'ARAkLkA8rmlFeiCktEJQ',
      },
    });
    await w.receiver.waitFor(() =>
      w.eventsFor(referred.id).some((e: { event: string }) => e.event === 'message.received'),
    );
    const event = w.eventsFor(referred.id).find((e: { event: string }) => e.event === 'message.received');
    expect(event.data.referral).toEqual(referred.referral);
    expect(w.validate(event)).toBe(true);
  });

  it('a user known only by business-scoped id (no `from`) is kept under that id', async () => {
    const change = messageChange(
      PHONE_NUMBER_ID,
      { userId: 'US.13491208655302741918', name: 'Kim' },
      { id: 'wamid.bsuid.1', type: 'text', text: { body: 'no number' } },
    );
    expect(await w.graph.sendWebhook(webhookOf(WABA_ID, change))).toBe(200);
    const { rows } = await w.t.db.query(
      `SELECT c.id, c.wa_user_phone, c.wa_user_id, c.contact_id FROM conversations c
         JOIN messages m ON m.conversation_id = c.id WHERE m.provider_message_id = 'wamid.bsuid.1'`,
    );
    expect(rows).toEqual([
      { id: expect.any(String), wa_user_phone: '', wa_user_id: 'US.13491208655302741918', contact_id: null },
    ]);
    // A reply goes to that id (`recipient`), the user having written within the window.
    const res = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'text',
      conversationId: rows[0].id,
      text: 'Hi Kim',
    });
    expect(res.status).toBe(201);
    expect(w.graph.sends().at(-1)!.body).toMatchObject({ recipient: 'US.13491208655302741918' });
    const shown = (await w.org.api.get(`/api/v1/messaging/conversations/${rows[0].id}`)).body.data;
    expect(shown).toMatchObject({ waUserPhone: '', waUserId: 'US.13491208655302741918', waUserName: 'Kim' });

    // When Meta later names the same user by both, the thread gains the phone (one thread, not two).
    const both = messageChange(
      PHONE_NUMBER_ID,
      { phone: '14155558899', userId: 'US.13491208655302741918', name: 'Kim' },
      { id: 'wamid.bsuid.2', type: 'text', text: { body: 'my number now' } },
    );
    expect(await w.graph.sendWebhook(webhookOf(WABA_ID, both))).toBe(200);
    const after = (await w.org.api.get(`/api/v1/messaging/conversations/${rows[0].id}`)).body.data;
    expect(after).toMatchObject({ waUserPhone: '+14155558899', waUserId: 'US.13491208655302741918', messageCount: 3 });

    // Two threads already, one by phone and one by id: a message naming both joins one and breaks nothing.
    await w.graph.sendWebhook(
      webhookOf(
        WABA_ID,
        messageChange(
          PHONE_NUMBER_ID,
          { phone: '14155558898' },
          { id: 'wamid.p.1', type: 'text', text: { body: 'a' } },
        ),
      ),
    );
    await w.graph.sendWebhook(
      webhookOf(
        WABA_ID,
        messageChange(PHONE_NUMBER_ID, { userId: 'US.2' }, { id: 'wamid.u.1', type: 'text', text: { body: 'b' } }),
      ),
    );
    const joined = messageChange(
      PHONE_NUMBER_ID,
      { phone: '14155558898', userId: 'US.2' },
      { id: 'wamid.pu.1', type: 'text', text: { body: 'c' } },
    );
    expect(await w.graph.sendWebhook(webhookOf(WABA_ID, joined))).toBe(200);
    const threads = await w.t.db.query(
      `SELECT wa_user_phone, wa_user_id, message_count FROM conversations
        WHERE wa_user_phone = '+14155558898' OR wa_user_id = 'US.2' ORDER BY wa_user_phone`,
    );
    expect(threads.rows).toEqual([
      { wa_user_phone: '', wa_user_id: 'US.2', message_count: 2 },
      { wa_user_phone: '+14155558898', wa_user_id: null, message_count: 1 },
    ]);
  });

  it('templates are synced from Meta (every page): bodies, languages, statuses replaced; status webhooks follow', async () => {
    const waba = '502290129340398';
    w.graph.grant(PROCESS_TOKEN, '506540352242922', waba);
    const account = await createAccount(w.t, w.org.id, { phoneNumberId: '506540352242922', wabaId: waba });
    await createTemplate(w.t, account.id, { name: 'typed_by_hand', language: 'en', body: 'Old' });
    await createTemplate(w.t, account.id, {
      name: 'welcome',
      language: 'en',
      body: 'Outdated {{1}}',
      status: 'PENDING',
    });
    w.graph.templatePageSize = 2;
    w.graph.addTemplate(waba, { name: 'welcome', language: 'en', status: 'APPROVED', body: 'Welcome {{1}}!' });
    w.graph.addTemplate(waba, { name: 'welcome', language: 'de', status: 'APPROVED', body: 'Willkommen {{1}}!' });
    w.graph.addTemplate(waba, { name: 'promo', language: 'en', status: 'PAUSED', body: 'Sale' });
    const res = await w.t.admin.post(`/admin/v1/messaging-accounts/${account.id}/templates/sync`, {});
    w.graph.templatePageSize = 25;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: account.id, synced: 3, removed: 1 });
    const stored = res.body.data.templates.map((x: Record<string, unknown>) => [x.name, x.language, x.status, x.body]);
    expect(stored).toEqual([
      ['promo', 'en', 'PAUSED', 'Sale'],
      ['welcome', 'de', 'APPROVED', 'Willkommen {{1}}!'],
      ['welcome', 'en', 'APPROVED', 'Welcome {{1}}!'],
    ]);
    expect(w.graph.requests.filter((r) => r.url.startsWith(`/v25.0/${waba}/message_templates`))).toHaveLength(2);

    // Meta disables a template: the status webhook moves it, and sending it is refused before Meta is asked.
    expect(await w.graph.sendWebhook(webhookOf(waba, templateStatusChange('welcome', 'en', 'DISABLED')))).toBe(200);
    const { conversationId } = await w.userWhoWrote('506540352242922');
    const before = w.graph.sends().length;
    const send = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'template',
      conversationId,
      templateName: 'welcome',
      templateLanguage: 'en',
      variables: { '1': 'Ann' },
    });
    expect(send.status).toBe(404);
    expect(send.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    expect(w.graph.sends().length).toBe(before);
    expect(await w.graph.sendWebhook(webhookOf(waba, templateStatusChange('welcome', 'en', 'REINSTATED')))).toBe(200);
    const again = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'template',
      conversationId,
      templateName: 'welcome',
      templateLanguage: 'en',
      variables: { '1': 'Ann' },
    });
    expect(again.status).toBe(201);
  });

  it('media goes out by link or by id, with caption and filename only where WhatsApp takes them', async () => {
    // A fixed number: the captured body is compared with its committed fixture.
    const { conversationId } = await w.userWhoWrote(PHONE_NUMBER_ID, '14155579001');
    const doc = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'document',
      conversationId,
      link: 'https://files.example.com/invoice-42.pdf',
      caption: 'Your invoice',
      filename: 'invoice-42.pdf',
    });
    expect(doc.status).toBe(201);
    const body = withStableMessageId(w.graph.sends().at(-1)!.body, doc.body.data.messageId);
    expect(body).toMatchObject({
      type: 'document',
      document: {
        link: 'https://files.example.com/invoice-42.pdf',
        caption: 'Your invoice',
        filename: 'invoice-42.pdf',
      },
    });
    await expectCapturedFixture(
      `${__dirname}/fixtures/send-document.fixture.ts`,
      WHATSAPP_SEND,
      capturedDocument,
      body,
    );
    expect(await w.messageOf(conversationId, doc.body.data.messageId)).toMatchObject({
      direction: 'outbound',
      messageType: 'document',
      mediaCaption: 'Your invoice',
      mediaUrl: 'https://files.example.com/invoice-42.pdf',
    });

    // By id: only a file a user sent this account; any other id is refused before Meta is asked.
    const sendsBefore = w.graph.sends().length;
    const foreign = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'audio',
      conversationId,
      mediaId: '1013859600285441',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'mediaId' }] });
    const header = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'template',
      conversationId,
      templateName: 'order_update',
      templateLanguage: 'en',
      variables: { '1': 'Ann' },
      header: { type: 'image', mediaId: '1013859600285441' },
    });
    expect(header.status).toBe(400);
    expect(header.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'header.mediaId' }] });
    expect(w.graph.sends()).toHaveLength(sendsBefore);
    const voiceNote = {
      id: 'wamid.voice.9001',
      type: 'audio',
      audio: { id: '1013859600285441', mime_type: 'audio/ogg' },
    };
    expect(
      await w.graph.sendWebhook(
        webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, { phone: '14155579001' }, voiceNote)),
      ),
    ).toBe(200);
    const audio = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'audio',
      conversationId,
      mediaId: '1013859600285441',
      caption: 'ignored',
    });
    expect(audio.status).toBe(201);
    expect(w.graph.sends().at(-1)!.body).toMatchObject({ type: 'audio', audio: { id: '1013859600285441' } });
    expect(w.graph.sends().at(-1)!.body).not.toHaveProperty('audio.caption');

    for (const bad of [{}, { link: 'https://x.example/a.png', mediaId: '1' }, { link: 'http://x.example/a.png' }]) {
      const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'image', conversationId, ...bad });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it("a template's header and button parameters go out as WhatsApp components; a missing header is Meta's 132000", async () => {
    const { conversationId } = await w.userWhoWrote(PHONE_NUMBER_ID, '14155579002');
    const res = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'template',
      conversationId,
      templateName: 'order_update',
      templateLanguage: 'en',
      variables: { '1': 'Ann' },
      header: { type: 'text', text: '#42' },
      buttons: [
        { index: 0, subType: 'quick_reply', value: 'TRACK_42' },
        { index: 1, subType: 'url', value: 'orders/42' },
      ],
    });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
    const body = withStableMessageId(w.graph.sends().at(-1)!.body, res.body.data.messageId);
    expect(body.type === 'template' && body.template.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: '#42' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Ann' }] },
      { type: 'button', index: '0', sub_type: 'quick_reply', parameters: [{ type: 'payload', payload: 'TRACK_42' }] },
      { type: 'button', index: '1', sub_type: 'url', parameters: [{ type: 'text', text: 'orders/42' }] },
    ]);
    const fixture = `${__dirname}/fixtures/send-template-header-buttons.fixture.ts`;
    await expectCapturedFixture(fixture, WHATSAPP_SEND, capturedTemplateHeaderButtons, body);

    const without = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'template',
      conversationId,
      templateName: 'order_update',
      templateLanguage: 'en',
      variables: { '1': 'Ann' },
    });
    expect(without.status).toBe(422);
    expect(without.body.error.details).toEqual([expect.objectContaining({ providerCode: 132000 })]);
  });
});
