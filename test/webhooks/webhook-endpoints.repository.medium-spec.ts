import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { WebhookEndpoint } from '../../src/modules/webhooks/webhook-endpoint.entity';
import { inTransaction } from '../../src/infra/database/tx';
import { DEV_SIGNING_KEY, SigningSecrets } from '../../src/infra/secrets/signing-secrets';
import { WebhookEndpointsRepository } from '../../src/modules/webhooks/webhook-endpoints.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * WebhookEndpointsRepository against real PostgreSQL: which endpoints an event fans out to, and the conditional
 * updates that workers and API processes race on (failure count and disabling, the recover slot), the signing
 * secret sealed in its column.
 */
describe('WebhookEndpointsRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let endpoints: WebhookEndpointsRepository;
  const secrets = new SigningSecrets(DEV_SIGNING_KEY);

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([WebhookEndpoint]));
    endpoints = new WebhookEndpointsRepository(dataSource, dataSource.getRepository(WebhookEndpoint), secrets);
  });
  afterAll(() => close());

  async function endpoint(values: Partial<WebhookEndpoint> = {}): Promise<WebhookEndpoint> {
    const row = dataSource.manager.create(WebhookEndpoint, {
      id: uuidv7(),
      organizationId: randomUUID(),
      url: 'https://example.com/hook',
      events: ['call.ended'],
      secret: secrets.seal('whsec_test'),
      ...values,
    });
    await dataSource.manager.insert(WebhookEndpoint, row);
    return row;
  }
  const reload = (id: string) => dataSource.manager.findOneByOrFail(WebhookEndpoint, { id });

  /** An outbox row of the event (the fan-out reads the event's world from it). */
  async function event(organizationId: string, livemode: boolean) {
    const eventId = randomUUID();
    await dataSource.query(
      `INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
       VALUES ($1, $2, $3, 'call.ended', '{}', now())`,
      [eventId, organizationId, livemode],
    );
    return { eventId, organizationId, type: 'call.ended' };
  }

  it('subscribedIds: per event, the organization’s active endpoints of the event’s world subscribed to the type', async () => {
    const organizationId = randomUUID();
    const subscribed = await endpoint({ organizationId, events: ['call.ended', 'call.failed'] });
    const subscribedTest = await endpoint({ organizationId, livemode: false, events: ['call.ended'] });
    await endpoint({ organizationId, events: ['call.failed'] });
    await endpoint({ organizationId, isActive: false });
    await endpoint({ events: ['call.ended'] });
    expect(await endpoints.subscribedIds([await event(organizationId, true)])).toEqual([[subscribed.id]]);
    expect(await endpoints.subscribedIds([await event(organizationId, false)])).toEqual([[subscribedTest.id]]);
    // Several events in one read: each gets its own endpoints, in the events' order.
    const other = randomUUID();
    const others = [await endpoint({ organizationId: other }), await endpoint({ organizationId: other })];
    const events = [await event(other, true), await event(organizationId, true), await event(other, false)];
    expect(await endpoints.subscribedIds(events)).toEqual([others.map((e) => e.id).sort(), [subscribed.id], []]);
  });

  it('findForSend reads the secret, scoped to the organization', async () => {
    const row = await endpoint();
    expect(await endpoints.findForSend(row.organizationId, row.id)).toEqual({
      url: row.url,
      secret: 'whsec_test',
      events: ['call.ended'],
      is_active: true,
      consecutive_failures: 0,
      livemode: true,
    });
    expect(await endpoints.findForSend(randomUUID(), row.id)).toBeUndefined();
  });

  it('stores the secret sealed: the column never holds it, the reads open it, a rotation seals the new one', async () => {
    const organizationId = randomUUID();
    const world = { organizationId, livemode: true };
    const created = await inTransaction(dataSource, (tx) =>
      endpoints.insert(tx, world, {
        url: 'https://example.com/hook',
        events: ['call.ended'],
        secret: 'whsec_plain_1',
        description: null,
      }),
    );
    const column = async () =>
      (await dataSource.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [created.id]))[0].secret as string;
    expect(await column()).toMatch(/^v1\./);
    expect(await column()).not.toContain('whsec_plain_1');
    expect(await endpoints.findSecret(world, created.id)).toBe('whsec_plain_1');
    expect((await endpoints.findForSend(organizationId, created.id))?.secret).toBe('whsec_plain_1');

    expect(await endpoints.update(world, created.id, { secret: 'whsec_plain_2' })).toBe(true);
    expect(await column()).not.toContain('whsec_plain_2');
    expect(await endpoints.findSecret(world, created.id)).toBe('whsec_plain_2');
    // Another organization's id reads nothing.
    expect(await endpoints.findSecret({ organizationId: randomUUID(), livemode: true }, created.id)).toBeNull();
  });

  it('countFailure disables the endpoint at the threshold, stamping disabled_at once', async () => {
    const row = await endpoint({ consecutiveFailures: 8 });
    expect(await endpoints.countFailure(row.id, 10)).toEqual({ consecutive_failures: 9, is_active: true });
    expect((await reload(row.id)).disabledAt).toBeNull();
    expect(await endpoints.countFailure(row.id, 10)).toEqual({ consecutive_failures: 10, is_active: false });
    const disabledAt = (await reload(row.id)).disabledAt;
    expect(disabledAt).toBeInstanceOf(Date);
    expect(await endpoints.countFailure(row.id, 10)).toEqual({ consecutive_failures: 11, is_active: false });
    expect((await reload(row.id)).disabledAt).toEqual(disabledAt);
    expect(await endpoints.countFailure(randomUUID(), 10)).toBeUndefined();
  });

  it('countFailure decides the threshold once however many failures land together', async () => {
    const row = await endpoint({ consecutiveFailures: 5 });
    const results = await Promise.all(Array.from({ length: 5 }, () => endpoints.countFailure(row.id, 10)));
    expect(results.map((r) => r!.consecutive_failures).sort((a, b) => a - b)).toEqual([6, 7, 8, 9, 10]);
    expect(results.filter((r) => r!.consecutive_failures === 10 && !r!.is_active)).toHaveLength(1);
  });

  it('resetFailures zeroes the count and leaves a healthy endpoint unwritten', async () => {
    const failing = await endpoint({ consecutiveFailures: 3 });
    await endpoints.resetFailures(failing.id);
    expect((await reload(failing.id)).consecutiveFailures).toBe(0);
    const healthy = await endpoint();
    await dataSource.query(`UPDATE webhook_endpoints SET updated_at = '2020-01-01' WHERE id = $1`, [healthy.id]);
    await endpoints.resetFailures(healthy.id);
    expect((await reload(healthy.id)).updatedAt).toEqual(new Date('2020-01-01T00:00:00.000Z'));
  });

  it('claimRecoverySlot: one claim per interval; an older claim frees the slot', async () => {
    const row = await endpoint();
    const claims = await Promise.all([
      endpoints.claimRecoverySlot(row.id, 60),
      endpoints.claimRecoverySlot(row.id, 60),
    ]);
    expect(claims.sort()).toEqual([false, true]);
    await dataSource.query(
      `UPDATE webhook_endpoints SET last_recovery_at = now() - interval '61 seconds' WHERE id = $1`,
      [row.id],
    );
    expect(await endpoints.claimRecoverySlot(row.id, 60)).toBe(true);
  });
});
