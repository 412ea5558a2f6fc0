import { createHmac } from 'node:crypto';
import { VoiceCallingClient, VoiceCallingError, verifyWebhook } from '../../clients/typescript/src';
import { callingOrg } from '../calls/call-fixtures';
import { createAccount } from '../messaging/messaging-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * The TypeScript SDK (clients/typescript, generated from the committed document) drives one flow per module
 * against the running app: if its types or its runtime drift from the API, this file stops compiling or fails.
 */
describe('TypeScript SDK against the running API', () => {
  let t: TestApp;
  let client: VoiceCallingClient;
  let from: string;
  let orgId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const org = await callingOrg(t);
    orgId = org.id;
    from = org.from;
    client = new VoiceCallingClient({ baseUrl: t.baseUrl, apiKey: org.key });
  });
  afterAll(() => t?.close());

  it('organization, phone numbers, contact groups and usage read through typed methods', async () => {
    const organization = await client.getOrganization();
    expect(organization.data.id).toBe(orgId);
    const numbers = await client.listPhoneNumbers();
    expect(numbers.data.map((n) => n.number)).toContain(from);
    expect(Array.isArray((await client.listContactGroups()).data)).toBe(true);
    expect((await client.getUsage()).data.balanceMins).toBe(1000);
  });

  it('contacts: create (automatic Idempotency-Key), iterate every page, update, delete', async () => {
    for (let i = 0; i < 3; i++) {
      await client.createContact({ title: `Ada ${i}`, phone: `+1415555030${i}` });
    }
    const seen: string[] = [];
    for await (const contact of client.iterate((q) => client.listContacts(q), { limit: 2 })) seen.push(contact.title);
    expect(seen.sort()).toEqual(['Ada 0', 'Ada 1', 'Ada 2']);
    const first = (await client.listContacts({ limit: 1 })).data[0];
    const updated = await client.updateContact(first.id, { tags: ['vip'] });
    expect(updated.data.tags).toEqual(['vip']);
    await client.deleteContact(first.id);
    const gone = await client.getContact(first.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(VoiceCallingError);
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('cases, assistants and calls: a scripted call with an explicit Idempotency-Key is replayed, not repeated', async () => {
    const kase = await client.createCase({ title: 'Follow-up', prompt: 'Ask {{contact.title}} about the order' });
    const assistant = await client.createOutboundAssistant({
      name: 'Outreach',
      voice: { provider: 'vapi', voiceId: 'Elliot' },
      model: { provider: 'openai', model: 'gpt-4o-mini' },
    });
    const body = { to: '+14155550123', from, caseId: kase.data.id, assistantConfigId: assistant.data.id };
    const call = await client.createCall(body, { idempotencyKey: 'sdk-flow-1' });
    const again = await client.createCall(body, { idempotencyKey: 'sdk-flow-1' });
    expect(again.data.id).toBe(call.data.id);
    expect((await client.getCall(call.data.id)).data.caseId).toBe(kase.data.id);
    const reused = await client
      .createCall({ ...body, to: '+14155550124' }, { idempotencyKey: 'sdk-flow-1' })
      .catch((e: unknown) => e);
    expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('a refused request is a VoiceCallingError carrying code, status and request id', async () => {
    const error = await client.createCall({ to: 'not a number', from }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VoiceCallingError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', requestId: expect.any(String) });
  });

  it('webhooks: create an endpoint, verify a signature made with its secret', async () => {
    const endpoint = await client.createWebhook({ url: 'https://example.com/hook', events: ['call.ended'] });
    const secret = endpoint.data.secret;
    const raw = JSON.stringify({ event: 'call.ended', timestamp: new Date().toISOString(), data: {} });
    const now = Math.floor(Date.now() / 1000);
    const header = `t=${now},v1=${createHmac('sha256', secret).update(`${now}.${raw}`).digest('hex')}`;
    expect(verifyWebhook(raw, header, secret, 300)).toBe(true);
    expect(verifyWebhook(`${raw} `, header, secret, 300)).toBe(false);
    const old = `t=${now - 600},v1=${createHmac('sha256', secret)
      .update(`${now - 600}.${raw}`)
      .digest('hex')}`;
    expect(verifyWebhook(raw, old, secret, 300)).toBe(false);
    expect((await client.listWebhooks()).data.map((w) => w.id)).toContain(endpoint.data.id);
  });

  it('messaging: connected accounts list', async () => {
    const account = await createAccount(t, orgId);
    expect((await client.listMessagingAccounts()).data.map((a) => a.id)).toContain(account.id);
  });
});
