import { randomBytes } from 'node:crypto';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { FakeGraphApi } from './fake-graph-api';
import { createAccount, userWrites } from './messaging-fixtures';
import { messageChange, webhookOf } from './whatsapp-webhooks';
import { APP_SECRET, PHONE_NUMBER_ID, PROCESS_TOKEN, WABA_ID, whatsAppEnv } from './whatsapp-world';

/**
 * Where the process-wide Graph token may go, with the outbound URL rules as production has them (no
 * WEBHOOK_ALLOW_INSECURE): a media location Meta's answer names is fetched only when those rules allow it, and a
 * test message's media never reaches Graph at all.
 */
describe('messaging: media and the provider token (strict fake Graph API, production URL rules)', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let org: TestOrg;

  beforeAll(async () => {
    graph = new FakeGraphApi();
    await graph.start();
    graph.grant(PROCESS_TOKEN, PHONE_NUMBER_ID, WABA_ID);
    // Outbound URL rules as in production: no WEBHOOK_ALLOW_INSECURE.
    t = await startTestApp({ env: whatsAppEnv(graph) });
    graph.deliverWebhooksTo(`${t.baseUrl}/platform/whatsapp/webhook`, APP_SECRET);
    org = await createOrg(t);
    await createAccount(t, org.id, { phoneNumberId: PHONE_NUMBER_ID, wabaId: WABA_ID });
  });
  afterAll(async () => {
    await t?.close();
    await graph?.stop();
  });

  const mediaOf = (id: string, key = org.key) =>
    fetch(`${t.baseUrl}/api/v1/messaging/messages/${id}/media`, { headers: { 'x-api-key': key } });
  const fileRequests = () => graph.requests.filter((r) => r.url.startsWith('/media-files/'));

  it('a media location outside the outbound URL rules (here http to loopback) is never called with the token', async () => {
    graph.addMedia('media-local', randomBytes(100), 'image/jpeg');
    const image = { id: 'wamid.local.1', type: 'image', image: { id: 'media-local', mime_type: 'image/jpeg' } };
    expect(
      await graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, { phone: '14155550190' }, image))),
    ).toBe(200);
    const id = (await t.db.query("SELECT id FROM messages WHERE media_id = 'media-local'")).rows[0].id;
    const res = await mediaOf(id);
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe('MESSAGING_API_ERROR');
    // Meta was asked where the file is; the location it named was not called.
    expect(graph.requests.some((r) => r.url === '/v25.0/media-local')).toBe(true);
    expect(fileRequests()).toEqual([]);
  });

  it("a test message's media is the simulator's file, never asked of Graph", async () => {
    const account = await createAccount(t, org.id, { phoneNumberId: 'pn-media-test', livemode: false });
    const testKey = await org.keyWith(['*'], { environment: 'test' });
    const conversationId = await userWrites(t, account.id, '+14155550191');
    graph.addMedia('media-of-someone', randomBytes(100), 'image/jpeg');
    const sent = await testKey.api.post('/api/v1/messaging/messages', {
      type: 'image',
      conversationId,
      mediaId: 'media-of-someone',
    });
    expect(sent.status).toBe(201);
    const asked = graph.requests.length;
    const res = await mediaOf(sent.body.data.messageId, testKey.key);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Simulated media file media-of-someone\n');
    expect(graph.requests).toHaveLength(asked);
  });
});
