import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { WebhookDeliveryLease } from '../../src/modules/webhooks/delivery/webhook-delivery-lease.entity';
import { WebhookDeliveryLeaseRepository } from '../../src/modules/webhooks/delivery/webhook-delivery-lease.repository';
import { WebhookEndpoint } from '../../src/modules/webhooks/webhook-endpoint.entity';
import { openTestDataSource } from '../support/test-data-source';
import { waitUntil } from '../support/wait-until';

const LEASE_MS = 30_000;

/**
 * The endpoint slots against real PostgreSQL: a batch of claims takes at most the free slots, in its order, however
 * many workers claim at once (the per-endpoint lock in webhook_delivery_claim_many), and a batch of releases hands
 * back as many waiters, longest first.
 */
describe('WebhookDeliveryLeaseRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let leases: WebhookDeliveryLeaseRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([WebhookEndpoint, WebhookDeliveryLease]));
    leases = new WebhookDeliveryLeaseRepository(dataSource);
  });
  afterAll(() => close());

  async function endpoint(): Promise<string> {
    const id = uuidv7();
    await dataSource.manager.insert(WebhookEndpoint, {
      id,
      organizationId: randomUUID(),
      url: 'https://example.com/hook',
      events: ['call.ended'],
      secret: 'whsec_test',
    });
    return id;
  }
  const jobs = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const running = async (endpointId: string) =>
    Number(
      (
        await dataSource.query(`SELECT count(*) AS n FROM webhook_delivery_leases WHERE endpoint_id = $1 AND running`, [
          endpointId,
        ])
      )[0].n,
    );

  it('a batch takes the free slots in its order and records the rest as waiting', async () => {
    const id = await endpoint();
    expect(await leases.claimMany(['held'], id, 3, LEASE_MS)).toEqual(['running']);
    expect(await leases.claimMany(jobs('a', 4), id, 3, LEASE_MS)).toEqual(['running', 'running', 'waiting', 'waiting']);
    expect(await running(id)).toBe(3);
    // A waiting attempt asking again keeps its place; a duplicate job in a batch is claimed once.
    expect(await leases.claimMany(['a-2', 'a-2'], id, 3, LEASE_MS)).toEqual(['waiting', 'waiting']);
  });

  it('concurrent batches from many workers never run more than the limit', async () => {
    const id = await endpoint();
    const batches = await Promise.all(
      Array.from({ length: 10 }, (_, w) => leases.claimMany(jobs(`w${w}`, 5), id, 7, LEASE_MS)),
    );
    expect(batches.flat().filter((r) => r === 'running')).toHaveLength(7);
    expect(await running(id)).toBe(7);
  });

  it('releases hand back as many waiters, longest waiting first', async () => {
    const id = await endpoint();
    await leases.claimMany(['r-0', 'r-1'], id, 2, LEASE_MS);
    for (const job of ['old', 'mid', 'new']) {
      expect(await leases.claimMany([job], id, 2, LEASE_MS)).toEqual(['waiting']);
      // The next waiter's `since` (millisecond precision) must come later: wait until the database clock is past it.
      await waitUntil(
        `the clock to pass ${job}'s waiting time`,
        async () =>
          (
            await dataSource.query(
              `SELECT now() >= since + interval '1 millisecond' AS past FROM webhook_delivery_leases WHERE job_id = $1`,
              [job],
            )
          )[0].past as boolean,
        5000,
        1,
      );
    }
    const woken = await leases.releaseMany(['r-0', 'r-1'], id);
    expect(woken.map((w) => w.jobId)).toEqual(['old', 'mid']);
    expect(await running(id)).toBe(0);
    expect((await leases.next(id))?.jobId).toBe('new');
    expect(await leases.next(id)).toBeNull();
  });

  it('every claim of a deleted endpoint is gone', async () => {
    const id = await endpoint();
    await dataSource.manager.delete(WebhookEndpoint, { id });
    expect(await leases.claimMany(jobs('g', 2), id, 2, LEASE_MS)).toEqual(['gone', 'gone']);
  });
});
