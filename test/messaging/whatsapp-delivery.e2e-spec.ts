import { randomBytes } from 'node:crypto';
import { SealedTokensCheck } from '../../src/modules/messaging/sealed-tokens-check';
import { createAccount, eventually } from './messaging-fixtures';
import { statusChange, webhookOf } from './whatsapp-webhooks';
import { PHONE_NUMBER_ID, PROCESS_TOKEN, SECRETS_KEY, WABA_ID, useWhatsAppWorld } from './whatsapp-world';

/**
 * Sends on WhatsApp against the strict fake Graph API: late and early statuses and their events, Meta's errors
 * mapped with their codes, rate limits retried, tokens refused, per-account tokens sealed and never returned.
 */
describe('messaging: WhatsApp delivery, errors and credentials (strict fake Graph API)', () => {
  const w = useWhatsAppWorld();

  it.each([
    [131047, 'Re-engagement message'],
    [131026, 'Message undeliverable'],
    [131049, 'This message was not delivered to maintain healthy ecosystem engagement.'],
  ])(
    'a late %d (a failed status webhook after the send was accepted) fails the message and fires message.failed',
    async (code, title) => {
      const { phone, conversationId } = await w.userWhoWrote();
      w.graph.failLater(phone, code);
      const res = await w.org.api.post('/api/v1/messaging/messages', {
        type: 'text',
        conversationId,
        text: 'Hello later',
      });
      expect(res.status).toBe(201);
      const messageId = res.body.data.messageId;
      const failed = await eventually(async () => {
        const m = await w.messageOf(conversationId, messageId);
        return m.deliveryStatus === 'failed' && m;
      });
      expect(failed.error).toEqual({ code, title });
      await w.receiver.waitFor(() =>
        w.eventsFor(messageId).some((e: { event: string }) => e.event === 'message.failed'),
      );
      const event = w.eventsFor(messageId).find((e: { event: string }) => e.event === 'message.failed');
      expect(event.data).toMatchObject({
        id: messageId,
        conversationId,
        livemode: true,
        deliveryStatus: 'failed',
        error: { code, title },
      });
      expect(w.validate(event)).toBe(true);
    },
  );

  it('a status that arrives before the send is answered (provider id not yet known to us) is applied', async () => {
    const { phone, conversationId } = await w.userWhoWrote();
    w.graph.reportBeforeAnswering(phone);
    const res = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'text',
      conversationId,
      text: 'Early bird',
    });
    expect(res.status).toBe(201);
    // The fake delivered `sent` (and had it acknowledged) before answering the send: the row had no provider id
    // then; the status named it by our id (biz_opaque_callback_data).
    expect((await w.messageOf(conversationId, res.body.data.messageId)).deliveryStatus).toBe('sent');
    expect((await w.t.db.query('SELECT count(*)::int AS n FROM early_delivery_statuses')).rows[0].n).toBe(0);
    await w.receiver.waitFor(() =>
      w.eventsFor(res.body.data.messageId).some((e: { event: string }) => e.event === 'message.sent'),
    );
  });

  it("132000 (parameter count) is 422 TEMPLATE_INVALID with Meta's code in details; nothing stored", async () => {
    const { conversationId } = await w.userWhoWrote();
    const before = w.graph.sends().length;
    const res = await w.org.api.post('/api/v1/messaging/messages', {
      type: 'template',
      conversationId,
      templateName: 'reminder',
      templateLanguage: 'en_US',
      variables: { '1': 'Ann' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'TEMPLATE_INVALID',
      details: [expect.objectContaining({ field: 'provider', providerCode: 132000 })],
    });
    // The fake refused it on its own rules (one placeholder given, two expected), not on cue.
    expect(w.graph.sends().length).toBe(before + 1);
    expect((await w.org.api.get(`/api/v1/messaging/conversations/${conversationId}`)).body.data.messageCount).toBe(1);
  });

  it('130429 (throughput): the POST answers the stored message, the send queue sends it after a backoff', async () => {
    const { conversationId } = await w.userWhoWrote();
    w.graph.failNext(130429, 2);
    w.graph.reportSent = true;
    try {
      const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'Again' });
      expect(res.status).toBe(201);
      const messageId = res.body.data.messageId;
      expect(['accepted', 'sent']).toContain((await w.messageOf(conversationId, messageId)).deliveryStatus);
      await w.receiver.waitFor(() => w.eventsFor(messageId).some((e: { event: string }) => e.event === 'message.sent'));
      expect((await w.messageOf(conversationId, messageId)).deliveryStatus).toBe('sent');
      // The refused attempt, the queued one refused again, then the one taken: all the same message, by our id.
      expect(w.graph.sendsOf(messageId).length).toBe(3);
    } finally {
      w.graph.reportSent = false;
    }
  });

  it("130429 past the retries fails the message with Meta's code and fires message.failed", async () => {
    const { conversationId } = await w.userWhoWrote();
    w.graph.failNext(130429, 4);
    const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'No luck' });
    expect(res.status).toBe(201);
    const messageId = res.body.data.messageId;
    const failed = await eventually(async () => {
      const m = await w.messageOf(conversationId, messageId);
      return m.deliveryStatus === 'failed' && m;
    });
    expect(failed.error).toEqual({ code: 130429, title: expect.stringContaining('Rate limit hit') });
    expect(w.graph.sendsOf(messageId).length).toBe(4);
    await w.receiver.waitFor(() => w.eventsFor(messageId).some((e: { event: string }) => e.event === 'message.failed'));
  });

  it('a refused token (190) is 502 MESSAGING_API_ERROR naming the account', async () => {
    const other = await createAccount(w.t, w.org.id, { phoneNumberId: '306540352242922', accessToken: 'EAAG-revoked' });
    w.graph.grant(PROCESS_TOKEN, '306540352242922', WABA_ID);
    const { conversationId } = await w.userWhoWrote('306540352242922');
    const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'x' });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('MESSAGING_API_ERROR');
    expect(res.body.error.message).toContain(other.id);
    expect(res.body.error.details).toEqual([expect.objectContaining({ providerCode: 190 })]);
  });

  it("an account's own token is used for its sends, rotatable, and never returned", async () => {
    const own = 'EAAG-own-token-of-this-account';
    const account = await createAccount(w.t, w.org.id, {
      phoneNumberId: '406540352242922',
      wabaId: WABA_ID,
      accessToken: own,
    });
    expect(account).toMatchObject({ hasAccessToken: true });
    expect(JSON.stringify(account)).not.toContain(own);
    w.graph.grant(own, '406540352242922', WABA_ID);
    const { conversationId } = await w.userWhoWrote('406540352242922');
    const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'Own token' });
    expect(res.status).toBe(201);
    expect(w.graph.sends().at(-1)!.headers.authorization).toBe(`Bearer ${own}`);

    const listed = (await w.org.api.get('/api/v1/messaging/accounts')).body.data;
    expect(JSON.stringify(listed)).not.toContain(own);
    const stored = (
      await w.t.db.query('SELECT access_token_sealed FROM messaging_accounts WHERE id = $1', [account.id])
    ).rows[0].access_token_sealed;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(own);

    const rotated = 'EAAG-rotated-token';
    w.graph.grant(rotated, '406540352242922', WABA_ID);
    const put = await w.t.admin.request('PUT', `/admin/v1/messaging-accounts/${account.id}/access-token`, {
      body: { accessToken: rotated },
    });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(rotated);
    expect(
      (await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'Rotated' })).status,
    ).toBe(201);
    expect(w.graph.sends().at(-1)!.headers.authorization).toBe(`Bearer ${rotated}`);
  });

  it('sent, delivered and read each fire their event: signed, logged, with the Message and livemode', async () => {
    const { phone, conversationId } = await w.userWhoWrote();
    const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'Track me' });
    const messageId = res.body.data.messageId;
    const wamid = (await w.t.db.query('SELECT provider_message_id FROM messages WHERE id = $1', [messageId])).rows[0]
      .provider_message_id;
    for (const status of ['sent', 'delivered', 'read'] as const) {
      expect(await w.graph.sendWebhook(webhookOf(WABA_ID, statusChange(PHONE_NUMBER_ID, wamid, status, phone)))).toBe(
        200,
      );
    }
    await w.receiver.waitFor(() => w.eventsFor(messageId).length === 3);
    const events = w.eventsFor(messageId);
    expect(events.map((e: { event: string }) => e.event).sort()).toEqual([
      'message.delivered',
      'message.read',
      'message.sent',
    ]);
    for (const e of events) {
      expect(e.data).toMatchObject({ id: messageId, conversationId, livemode: true });
      expect(w.validate(e)).toBe(true);
    }
    // Signed and logged as every event is: the signature header, and the endpoint's delivery log.
    for (const received of w.receiver.on('/messages').filter((r) => JSON.parse(r.rawBody).data.id === messageId)) {
      expect(received.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    }
    await eventually(async () => {
      const log = await w.org.api.get(`/api/v1/webhooks/${w.webhookId}/deliveries`, { query: { limit: 100 } });
      const logged = log.body.data.filter((d: { event: string }) => d.event.startsWith('message.'));
      return ['message.sent', 'message.delivered', 'message.read'].every((e) =>
        logged.some((d: { event: string; status: string }) => d.event === e && d.status === 'delivered'),
      );
    });
  });

  it('start-up (production) is refused when stored tokens cannot be opened: no SECRETS_KEY, or another key', async () => {
    await createAccount(w.t, w.org.id, { phoneNumberId: '706540352242922', accessToken: 'EAAG-sealed-for-the-check' });
    const check = w.t.app.get(SealedTokensCheck);
    expect(await check.problem({ secretsKey: Buffer.from(SECRETS_KEY, 'base64') })).toBeNull();
    const missing = await check.problem({ secretsKey: undefined });
    expect(missing).toMatch(/^Invalid environment: SECRETS_KEY is required: \d+ messaging account\(s\) store/);
    const other = await check.problem({ secretsKey: randomBytes(32) });
    expect(other).toContain('SECRETS_KEY does not open the access tokens');
    expect(`${missing} ${other}`).not.toContain('EAAG');
  });
});
