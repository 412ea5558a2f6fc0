import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { DEV_SIGNING_KEY, SigningSecrets } from '../../src/infra/secrets/signing-secrets';
import { AttemptKey, WebhookAttemptsRepository } from '../../src/modules/webhooks/delivery/webhook-attempts.repository';
import { WebhookDeliveryLease } from '../../src/modules/webhooks/delivery/webhook-delivery-lease.entity';
import { WebhookDelivery } from '../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../../src/modules/webhooks/webhook-endpoint.entity';
import { openTestDataSource } from '../support/test-data-source';

const TERMS = { limit: 2, leaseMs: 30_000 };

/**
 * The attempts' read against real PostgreSQL, with the endpoint slots claimed in the same statement: only for the
 * attempts that are sent (endpoint there, active, subscribed, in the event's world; event there; attempt not
 * logged), in the batch's order per endpoint, a duplicate job claimed once; without terms nothing is claimed.
 */
describe('WebhookAttemptsRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let attempts: WebhookAttemptsRepository;
  const secrets = new SigningSecrets(DEV_SIGNING_KEY);

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([WebhookEndpoint, WebhookDeliveryLease, WebhookDelivery]));
    attempts = new WebhookAttemptsRepository(dataSource, secrets);
  });
  afterAll(() => close());

  const org = randomUUID();
  async function endpoint(values: Partial<WebhookEndpoint> = {}): Promise<string> {
    const id = uuidv7();
    await dataSource.manager.insert(WebhookEndpoint, {
      id,
      organizationId: org,
      url: 'https://example.com/hook',
      events: ['call.ended'],
      secret: secrets.seal('whsec_test'),
      ...values,
    });
    return id;
  }
  async function event(livemode = true): Promise<string> {
    const eventId = randomUUID();
    await dataSource.query(
      `INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
       VALUES ($1, $2, $3, 'call.ended', '{}', now())`,
      [eventId, org, livemode],
    );
    return eventId;
  }
  const key = (eventId: string, endpointId: string, jobId = `${eventId}.${endpointId}`): AttemptKey => ({
    eventId,
    endpointId,
    organizationId: org,
    webhookId: randomUUID(),
    jobId,
    type: 'call.ended',
    attempt: 1,
    unlessLogged: true,
  });
  const leases = async (endpointId: string) =>
    (
      await dataSource.query(
        'SELECT job_id, running FROM webhook_delivery_leases WHERE endpoint_id = $1 ORDER BY since, job_id',
        [endpointId],
      )
    ).length as number;

  it('reads each attempt and claims the slots of the sendable ones, in order per endpoint', async () => {
    const id = await endpoint();
    const [e1, e2, e3] = [await event(), await event(), await event()];
    const rows = await attempts.read([key(e1, id), key(e2, id), key(e3, id)], TERMS);
    expect(rows.map((r) => r.claim)).toEqual(['running', 'running', 'waiting']);
    expect(rows[0].endpoint).toMatchObject({ url: 'https://example.com/hook', is_active: true });
    expect(rows[0].event).toMatchObject({ event_id: e1, type: 'call.ended', logged: false });
    expect(await leases(id)).toBe(3);
  });

  it('claims nothing for an attempt that is not sent', async () => {
    const active = await endpoint();
    const disabled = await endpoint({ isActive: false });
    const unsubscribed = await endpoint({ events: ['call.started'] });
    const testWorld = await endpoint({ livemode: false });
    const logged = key(await event(), active);
    await dataSource.query(
      `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, event_type, webhook_id, attempt, success,
                                       duration_ms)
       VALUES ($1, $2, $3, $4, 'call.ended', $5, 1, true, 10)`,
      [uuidv7(), org, active, logged.eventId, logged.webhookId],
    );
    const e = await event();
    const rows = await attempts.read(
      [
        key(e, disabled),
        key(e, unsubscribed),
        key(e, testWorld),
        key(randomUUID(), active),
        logged,
        key(e, randomUUID()),
      ],
      TERMS,
    );
    expect(rows.map((r) => r.claim)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(rows[4].event?.logged).toBe(true);
    expect(rows[5].endpoint).toBeUndefined();
    for (const id of [active, disabled, unsubscribed, testWorld]) expect(await leases(id)).toBe(0);
  });

  it('claims a duplicate job once, and nothing without terms', async () => {
    const id = await endpoint();
    const e = await event();
    expect((await attempts.read([key(e, id), key(e, id)], TERMS)).map((r) => r.claim)).toEqual([
      'running',
      'running',
    ]);
    expect(await leases(id)).toBe(1);
    const other = await endpoint();
    expect((await attempts.read([key(await event(), other)])).map((r) => r.claim)).toEqual([undefined]);
    expect(await leases(other)).toBe(0);
  });
});
