import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { FakeGraphApi } from './fake-graph-api';
import { createAccount, createTemplate } from './messaging-fixtures';
import { messageChange, webhookOf } from './whatsapp-webhooks';

export const APP_SECRET = 'whatsapp-app-secret-production';
export const PROCESS_TOKEN = 'EAAG-process-wide-token';
export const PHONE_NUMBER_ID = '206540352242922';
export const WABA_ID = '202290129340398';
export const SECRETS_KEY = randomBytes(32).toString('base64');
const eventSchema = JSON.parse(readFileSync(join(__dirname, '../../openapi/webhook-events.schema.json'), 'utf8'));

/** One app on WhatsApp against the strict fake Graph API, with a receiver subscribed to the message events. */
export interface WhatsAppWorld {
  t: TestApp;
  graph: FakeGraphApi;
  receiver: WebhookReceiver;
  org: TestOrg;
  accountId: string;
  /** The organization's webhook endpoint subscribed to the message events (delivered to `receiver` at /messages). */
  webhookId: string;
  /** Validates a delivered event against the committed openapi/webhook-events.schema.json. */
  validate: (event: unknown) => boolean;
  /** A new user number (digits, as Meta writes it) who has just written, and their conversation. */
  userWhoWrote(phoneNumberId?: string, fixedPhone?: string): Promise<{ phone: string; conversationId: string }>;
  messageOf(conversationId: string, id: string): Promise<any>;
  eventsFor(messageId: string): any[];
  close(): Promise<void>;
}

/** The world of one spec file: started before its tests (with `env` over the defaults), closed after them. */
export function useWhatsAppWorld(env: Record<string, string> = {}): WhatsAppWorld {
  const world = {} as WhatsAppWorld;
  beforeAll(async () => {
    Object.assign(world, await startWhatsAppWorld(env));
  });
  afterAll(() => world.close?.());
  return world;
}

/** The app's settings for WhatsApp against this fake Graph API (media bounded to 1,000 bytes, fast retries). */
export function whatsAppEnv(graph: FakeGraphApi): Record<string, string> {
  return {
    MESSAGING_PROVIDER: 'whatsapp',
    WHATSAPP_GRAPH_URL: `${graph.url}/v25.0`,
    WHATSAPP_ACCESS_TOKEN: PROCESS_TOKEN,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'verify-token-production',
    WHATSAPP_RETRY_BASE_MS: '20',
    // Suites send to one user back to back; pacing per recipient is whatsapp-send-queue.e2e-spec.ts's (it sets its own).
    WHATSAPP_RECIPIENT_BURST: '1000',
    WHATSAPP_MEDIA_MAX_BYTES: '1000',
    SECRETS_KEY,
  };
}

async function startWhatsAppWorld(env: Record<string, string>): Promise<WhatsAppWorld> {
  const graph = new FakeGraphApi();
  await graph.start();
  const receiver = await new WebhookReceiver().start();
  graph.grant(PROCESS_TOKEN, PHONE_NUMBER_ID, WABA_ID);
  graph.addTemplate(WABA_ID, {
    name: 'reminder',
    language: 'en_US',
    status: 'APPROVED',
    body: 'Hi {{1}}, see you {{2}}.',
  });
  graph.addTemplate(WABA_ID, {
    name: 'order_update',
    language: 'en',
    status: 'APPROVED',
    body: 'Hi {{1}}, your order is on its way.',
    header: { format: 'TEXT', text: 'Order {{1}}' },
  });
  const t = await startTestApp({ env: { ...whatsAppEnv(graph), WEBHOOK_ALLOW_INSECURE: 'true', ...env } });
  graph.deliverWebhooksTo(`${t.baseUrl}/platform/whatsapp/webhook`, APP_SECRET);
  const org = await createOrg(t);
  const accountId = (await createAccount(t, org.id, { phoneNumberId: PHONE_NUMBER_ID, wabaId: WABA_ID })).id;
  await createTemplate(t, accountId, { name: 'reminder', language: 'en_US', body: 'Hi {{1}}, see you {{2}}.' });
  await createTemplate(t, accountId, {
    name: 'order_update',
    language: 'en',
    body: 'Hi {{1}}, your order is on its way.',
  });
  const events = ['message.received', 'message.sent', 'message.delivered', 'message.read', 'message.failed'];
  const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/messages`, events });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(eventSchema);
  let phoneSeq = 0;
  return {
    t,
    graph,
    receiver,
    org,
    accountId,
    webhookId: hook.body.data.id,
    validate: (event) => validate(event) as boolean,
    async userWhoWrote(phoneNumberId = PHONE_NUMBER_ID, fixedPhone) {
      phoneSeq += 1;
      const phone = fixedPhone ?? `1415557${String(phoneSeq).padStart(4, '0')}`;
      const change = messageChange(
        phoneNumberId,
        { phone },
        { id: `wamid.in.${phone}`, type: 'text', text: { body: 'hi' } },
      );
      const status = await graph.sendWebhook(webhookOf(WABA_ID, change));
      if (status !== 200) throw new Error(`inbound webhook answered ${status}`);
      const list = (await org.api.get('/api/v1/messaging/conversations', { query: { limit: 100 } })).body.data;
      return {
        phone,
        conversationId: list.find((c: { waUserPhone: string }) => c.waUserPhone === `+${phone}`).id as string,
      };
    },
    async messageOf(conversationId, id) {
      const detail = (await org.api.get(`/api/v1/messaging/conversations/${conversationId}`)).body.data;
      return detail.messages.find((m: { id: string }) => m.id === id);
    },
    eventsFor: (messageId) =>
      receiver
        .on('/messages')
        .map((r) => JSON.parse(r.rawBody))
        .filter((b) => b.data.id === messageId),
    async close() {
      await t.close();
      await graph.stop();
      await receiver.stop();
    },
  };
}
