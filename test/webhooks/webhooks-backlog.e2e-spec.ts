import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { recordEvent } from './support/events';
import { WebhookReceiver } from './support/receiver';

/** The attempt timeout, and so how long a deferred attempt stays parked when nobody wakes it. */
const PARKED_MS = 30_000;
/** Attempts in flight per endpoint: 2 x 4 below the organization's share of 10, so both limits defer attempts. */
const PER_ENDPOINT = 4;
/** Events of the burst: 80 deliveries to two endpoints, far above the organization's share of 10 and 2 x 4 slots. */
const EVENTS = 40;

/**
 * A burst of one organization's events to receivers that answer at once. Most attempts find the
 * organization's share or their endpoint's slots in use and are deferred; each must be woken when a slot frees,
 * never left to wait out its parking delay (before: an endpoint's release promoted nobody, its result misread, and
 * the organization's line held 20, so the rest of a burst waited whole timeouts: p99 30-46 s in the system bench).
 * The parking delay is the timeout, so an attempt that reaches its receiver within it was never left parked.
 */
describe.each([
  ['Redis', false],
  ['PostgreSQL', true],
])('webhook backlog of one organization (%s queues)', (_, postgresQueues) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      postgresQueues,
      env: {
        WEBHOOK_ALLOW_INSECURE: 'true',
        WEBHOOK_TIMEOUT_MS: String(PARKED_MS),
        WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
        WEBHOOK_ORGANIZATION_CONCURRENCY: '10',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('every deferred attempt is woken: none waits out its parking delay', async () => {
    const org = await createOrg(t, { name: 'Backlog' });
    const paths = ['/backlog-a', '/backlog-b'];
    for (const path of paths) {
      const res = await org.api.post('/api/v1/webhooks', {
        url: `${receiver.url}${path}`,
        events: ['contact.created'],
      });
      expect(res.status).toBe(201);
    }
    await Promise.all(Array.from({ length: EVENTS }, (_, i) => recordEvent(t, org.id, 'contact.created', `c${i}`)));
    // Delivery is at least once: the burst has arrived when each endpoint has had every event, counted once.
    const distinctOn = (path: string) => new Set(receiver.on(path).map((r) => JSON.parse(r.rawBody).data.id)).size;
    await receiver.waitFor(
      () => paths.every((path) => distinctOn(path) === EVENTS),
      PARKED_MS + 15_000,
      'every delivery of the burst',
    );

    for (const path of paths) {
      expect(receiver.maxOpen.get(path)).toBeLessThanOrEqual(PER_ENDPOINT);
    }
    const waited = receiver.received.map((r) => r.at - Date.parse(JSON.parse(r.rawBody).timestamp as string));
    const parked = waited.filter((ms) => ms >= PARKED_MS);
    expect(parked).toEqual([]);
  }, 55_000);
});
