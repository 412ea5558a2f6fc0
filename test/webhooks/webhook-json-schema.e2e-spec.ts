import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { webhookEventsJsonSchema } from '../../src/common/openapi/webhook-json-schema';
import { callingOrg } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from './support/receiver';

const committed = JSON.parse(readFileSync(join(__dirname, '../../openapi/webhook-events.schema.json'), 'utf8'));

describe('webhook payloads as JSON Schema (openapi/webhook-events.schema.json)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('is derived from the served document (run `npm run openapi` after changing a payload)', async () => {
    const served = (await t.anonymous.get('/docs-json')).body;
    expect(webhookEventsJsonSchema(served)).toEqual(committed);
  });

  it('accepts every real delivery (contact and call events) and refuses a malformed one', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(committed);
    const org = await callingOrg(t);
    const events = ['contact.created', 'contact.updated', 'call.ended', 'call.failed', 'call.started'];
    expect((await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/all`, events })).status).toBe(201);

    const contact = await org.api.post('/api/v1/contacts', {
      title: 'Ada',
      phone: '+14155550161',
      customFields: { plan: 'gold', seats: 3, vip: true, note: null },
    });
    expect(contact.status).toBe(201);
    expect((await org.api.patch(`/api/v1/contacts/${contact.body.data.id}`, { notes: 'called back' })).status).toBe(
      200,
    );
    // Last digit 0: answered and ended; 9: a pipeline error (docs/contracts/simulator.md).
    for (const to of ['+14155550160', '+14155550169']) {
      expect((await org.api.post('/api/v1/calls', { to, from: org.from, firstMessage: 'Hello' })).status).toBe(201);
    }
    await receiver.waitFor((all) => new Set(all.map((r) => JSON.parse(r.rawBody).event)).size === events.length);

    for (const received of receiver.on('/all')) {
      const body = JSON.parse(received.rawBody);
      expect({ event: body.event, valid: validate(body), errors: validate.errors ?? null }).toEqual({
        event: body.event,
        valid: true,
        errors: null,
      });
    }
    expect(validate({ event: 'call.ended', timestamp: 'yesterday', data: {} })).toBe(false);
  });
});
