import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from './support/receiver';

/**
 * WEBHOOK_PRIVATE_NETWORKS: the operator allows receivers inside its own network explicitly (here the loopback
 * range, where the test's receiver listens), over http or https, while WEBHOOK_ALLOW_INSECURE stays off;
 * every other address keeps the public-address and https rules, at creation and at delivery alike.
 */
describe('webhook receivers inside WEBHOOK_PRIVATE_NETWORKS', () => {
  let t: TestApp;
  let org: TestOrg;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'false', WEBHOOK_PRIVATE_NETWORKS: '127.0.0.0/8' } });
    org = await createOrg(t);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('accepts an http receiver inside the listed network and delivers to it', async () => {
    const created = await org.api.post('/api/v1/webhooks', {
      url: `${receiver.url}/inside`,
      events: ['contact.created'],
    });
    expect(created.status).toBe(201);
    const ping = await org.api.post(`/api/v1/webhooks/${created.body.data.id}/test`);
    expect(ping.status).toBe(200);
    expect(ping.body.data.status).toBe('delivered');
    expect((await org.api.post('/api/v1/contacts', { title: 'Inside', phone: '+14155550199' })).status).toBe(201);
    await receiver.waitFor((all) => all.filter((r) => r.path === '/inside').length >= 2, 15_000, 'two deliveries');
    const events = receiver.on('/inside').map((r) => JSON.parse(r.rawBody).event);
    expect(events).toEqual(['webhook.test', 'contact.created']);
  });

  it.each([
    ['http://hooks.example.com/in', 'url must use https'],
    ['https://10.1.2.3/in', 'url must not point to a private, loopback or reserved address'],
    ['http://10.1.2.3/in', 'url must use https outside WEBHOOK_PRIVATE_NETWORKS'],
    ['https://169.254.169.254/latest', 'url must not point to a private, loopback or reserved address'],
    ['http://user:pw@127.0.0.1/in', 'url must not carry credentials'],
  ])('still refuses %s', async (url, message) => {
    const res = await org.api.post('/api/v1/webhooks', { url, events: ['contact.created'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(message);
  });
});
