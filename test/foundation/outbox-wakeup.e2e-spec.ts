import { randomUUID } from 'node:crypto';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { recordEvent } from '../webhooks/support/events';
import { WebhookReceiver } from '../webhooks/support/receiver';

/**
 * How a relay hears of events (src/modules/outbox/outbox-wakeup.ts): the process that wrote them wakes one once
 * they have committed, through a NOTIFY when it runs no relay itself; the relay's poll is the floor under a lost
 * wake-up. Every relay here polls once an hour, so within the harness's waits an event moves only by a wake-up,
 * except where the test says otherwise.
 */
const HOUR_MS = '3600000';

describe('outbox wake-up', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // The API in one process, the relay and the webhook delivery in another (a peer: its own relay, its own LISTEN).
    t = await startTestApp({ env: { ROLES: 'api', WEBHOOK_ALLOW_INSECURE: 'true', OUTBOX_POLL_MS: HOUR_MS } });
    await t.startPeer({ ROLES: 'worker', OUTBOX_POLL_MS: HOUR_MS });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const relayedAt = async (eventId: string) =>
    (await t.db.query('SELECT relayed_at FROM outbox_events WHERE event_id = $1', [eventId])).rows[0]?.relayed_at;

  it("reaches a webhook through another process's relay, from a one-statement write and from a transaction", async () => {
    const org = await createOrg(t);
    const hook = await org.api.post('/api/v1/webhooks', {
      url: `${receiver.url}/created`,
      events: ['contact.created'],
    });
    expect(hook.status).toBe(201);

    // POST /contacts: the contact and its event in one statement, committed on their own.
    const created = await org.api.post('/api/v1/contacts', { title: 'Ada', phone: '+14155550111' });
    expect(created.status).toBe(201);
    // An event recorded inside a transaction: the wake-up waits for the commit.
    await recordEvent(t, org.id, 'contact.created', 'Grace');

    await receiver.waitFor((all) => all.filter((r) => r.path === '/created').length === 2);
    const titles = receiver.on('/created').map((r) => JSON.parse(r.rawBody).data.title);
    expect(titles.sort()).toEqual(['Ada', 'Grace']);
  });

  it('leaves an event whose wake-up was lost to the poll of a relay', async () => {
    // A relay that polls often, beside the one that polls hourly.
    await t.startPeer({ ROLES: 'worker', OUTBOX_POLL_MS: '100' });
    // Rows written straight into the table: no process wakes any relay for them, as if the wake-up were lost
    // (the writer died between its commit and the NOTIFY). The second is written once the first was relayed,
    // so after the new relay's first look at start-up: only its poll can find it.
    const insertUnannounced = async () => {
      const eventId = randomUUID();
      await t.db.query(
        `INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
         VALUES ($1, $2, true, 'contact.created', $3, now())`,
        [eventId, randomUUID(), { contactId: randomUUID() }],
      );
      return eventId;
    };
    const first = await insertUnannounced();
    await waitUntil('the first unannounced event relayed', () => relayedAt(first));
    const second = await insertUnannounced();
    await waitUntil('the second unannounced event relayed', () => relayedAt(second));
  });
});
