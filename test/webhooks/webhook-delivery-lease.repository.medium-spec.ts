import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { WebhookDeliveryLease } from '../../src/modules/webhooks/delivery/webhook-delivery-lease.entity';
import { WebhookDeliveryLeaseRepository } from '../../src/modules/webhooks/delivery/webhook-delivery-lease.repository';
import {
  LoggedAttempt,
  WebhookDeliveryLogRepository,
} from '../../src/modules/webhooks/delivery/webhook-delivery-log.repository';
import { WebhookDelivery } from '../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../../src/modules/webhooks/webhook-endpoint.entity';
import { openTestDataSource } from '../support/test-data-source';
import { waitUntil } from '../support/wait-until';

const LEASE_MS = 30_000;

/**
 * The endpoint slots against real PostgreSQL: a batch of claims takes at most the free slots, in its order, however
 * many workers claim at once (the per-endpoint locks in webhook_delivery_claim_batch), and a batch of releases
 * hands back as many waiters of each endpoint, longest first; one batch may hold attempts of many endpoints.
 */
describe('WebhookDeliveryLeaseRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let leases: WebhookDeliveryLeaseRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([WebhookEndpoint, WebhookDeliveryLease, WebhookDelivery]));
    leases = new WebhookDeliveryLeaseRepository(
      dataSource,
      new WebhookDeliveryLogRepository(dataSource.getRepository(WebhookDelivery)),
    );
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
  // Job ids are the lease table's key: each test uses its own.
  const jobs = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  /** The attempts `jobIds` of the endpoint `endpointId`. */
  const of = (endpointId: string, jobIds: string[]) => jobIds.map((jobId) => ({ jobId, endpointId }));
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
    expect(await leases.claimMany(of(id, ['held']), 3, LEASE_MS)).toEqual(['running']);
    expect(await leases.claimMany(of(id, jobs('a', 4)), 3, LEASE_MS)).toEqual([
      'running',
      'running',
      'waiting',
      'waiting',
    ]);
    expect(await running(id)).toBe(3);
    // A waiting attempt asking again keeps its place; a duplicate job in a batch is claimed once.
    expect(await leases.claimMany(of(id, ['a-2', 'a-2']), 3, LEASE_MS)).toEqual(['waiting', 'waiting']);
  });

  it('concurrent batches from many workers never run more than the limit', async () => {
    const id = await endpoint();
    const batches = await Promise.all(
      Array.from({ length: 10 }, (_, w) => leases.claimMany(of(id, jobs(`w${w}`, 5)), 7, LEASE_MS)),
    );
    expect(batches.flat().filter((r) => r === 'running')).toHaveLength(7);
    expect(await running(id)).toBe(7);
  });

  it('releases hand back as many waiters, longest waiting first', async () => {
    const id = await endpoint();
    await leases.claimMany(of(id, ['r-0', 'r-1']), 2, LEASE_MS);
    for (const job of ['old', 'mid', 'new']) {
      expect(await leases.claimMany(of(id, [job]), 2, LEASE_MS)).toEqual(['waiting']);
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
    const woken = await leases.releaseMany(of(id, ['r-0', 'r-1']));
    expect(woken.map((w) => w.jobId)).toEqual(['old', 'mid']);
    expect(await running(id)).toBe(0);
    expect((await leases.next(id))?.jobId).toBe('new');
    expect(await leases.next(id)).toBeNull();
  });

  /** The log line of an attempt sent to `endpointId`. */
  const sent = (endpointId: string): LoggedAttempt => ({
    id: uuidv7(),
    organizationId: randomUUID(),
    endpointId,
    eventId: randomUUID(),
    eventType: 'call.ended',
    webhookId: randomUUID(),
    attempt: 1,
    success: true,
    statusCode: 200,
    durationMs: 3,
    responseExcerpt: 'ok',
    error: null,
  });
  const loggedOf = async (endpointIds: string[]) =>
    (
      await dataSource.query(`SELECT endpoint_id FROM webhook_deliveries WHERE endpoint_id = ANY ($1)`, [endpointIds])
    ).map((r: { endpoint_id: string }) => r.endpoint_id);

  it('a release logs the attempts that held the slots in the same statement', async () => {
    const [a, b] = [await endpoint(), await endpoint()];
    await leases.claimMany([...of(a, ['la-0']), ...of(b, ['lb-0', 'lb-1'])], 2, LEASE_MS);
    await leases.releaseMany([...of(a, ['la-0']), ...of(b, ['lb-0', 'lb-1'])], [sent(a), sent(b)]);
    expect([await running(a), await running(b)]).toEqual([0, 0]);
    expect((await loggedOf([a, b])).sort()).toEqual([a, b].sort());
  });

  it("an endpoint deleted while its attempt was in flight: the slots are freed and the others' attempts logged", async () => {
    const [kept, gone] = [await endpoint(), await endpoint()];
    await leases.claimMany([...of(kept, ['lk-0']), ...of(gone, ['lg-0'])], 2, LEASE_MS);
    // Deleting the endpoint takes its lease with it; its log line has nothing to refer to.
    await dataSource.manager.delete(WebhookEndpoint, { id: gone });
    await leases.releaseMany([...of(kept, ['lk-0']), ...of(gone, ['lg-0'])], [sent(kept), sent(gone)]);
    expect(await running(kept)).toBe(0);
    expect(await loggedOf([kept, gone])).toEqual([kept]);
  });

  it('every claim of a deleted endpoint is gone', async () => {
    const id = await endpoint();
    await dataSource.manager.delete(WebhookEndpoint, { id });
    expect(await leases.claimMany(of(id, jobs('g', 2)), 2, LEASE_MS)).toEqual(['gone', 'gone']);
  });

  it("a batch over many endpoints counts each one's slots apart, and only a deleted endpoint's attempts are gone", async () => {
    const [a, b, gone] = [await endpoint(), await endpoint(), await endpoint()];
    await leases.claimMany(of(a, ['xa-held']), 2, LEASE_MS);
    await dataSource.manager.delete(WebhookEndpoint, { id: gone });
    const batch = [...of(b, ['xb-0']), ...of(a, ['xa-0', 'xa-1']), ...of(gone, ['xg-0']), ...of(b, ['xb-1', 'xb-2'])];
    expect(await leases.claimMany(batch, 2, LEASE_MS)).toEqual([
      'running',
      'running',
      'waiting',
      'gone',
      'running',
      'waiting',
    ]);
    expect([await running(a), await running(b)]).toEqual([2, 2]);
  });

  it('concurrent batches over the same endpoints, in any order, never run more than any limit', async () => {
    const ids = [await endpoint(), await endpoint(), await endpoint()];
    const batches = await Promise.all(
      Array.from({ length: 10 }, (_, w) =>
        leases.claimMany(
          // Each worker lists the endpoints in another order: the locks are still taken in one order.
          [...ids.slice(w % 3), ...ids.slice(0, w % 3)].flatMap((id) => of(id, jobs(`${id}-w${w}`, 2))),
          3,
          LEASE_MS,
        ),
      ),
    );
    expect(batches.flat().filter((r) => r === 'running')).toHaveLength(9);
    for (const id of ids) expect(await running(id)).toBe(3);
  });

  it("a release over many endpoints hands back as many of each one's waiters as it freed there", async () => {
    const [a, b] = [await endpoint(), await endpoint()];
    await leases.claimMany([...of(a, ['ya-0', 'ya-1']), ...of(b, ['yb-0'])], 2, LEASE_MS);
    await leases.claimMany([...of(a, ['ya-w0', 'ya-w1']), ...of(b, ['yb-1', 'yb-w0'])], 2, LEASE_MS);
    const woken = await leases.releaseMany([...of(a, ['ya-0']), ...of(b, ['yb-0', 'yb-1'])]);
    // a's two waiters asked in one call (the same time): either is its longest.
    const fromA = woken.filter((w) => w.endpointId === a).map((w) => w.jobId);
    expect(fromA).toHaveLength(1);
    expect(woken.filter((w) => w.endpointId === b).map((w) => w.jobId)).toEqual(['yb-w0']);
    expect(await running(a)).toBe(1);
    expect(await running(b)).toBe(0);
    expect((await leases.next(a))?.jobId).toBe(fromA[0] === 'ya-w0' ? 'ya-w1' : 'ya-w0');
    expect(await leases.next(a)).toBeNull();
  });
});
