import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallReservation } from '../../src/modules/usage/entities/call-reservation.entity';
import { openTestDataSource } from '../support/test-data-source';
import { LEDGER_ENTITIES, ledgerRepositories, subscribedOrganization } from './ledger-parts';
import { inTransaction } from '../../src/infra/database/tx';

/**
 * A reservation is claimed for settlement once: `reserved -> settled` matches only a reservation still
 * `reserved`, so a settlement that comes second (repeated, or racing the first and waiting on its row lock)
 * claims nothing and releases no minute twice. The command's ledger row check hides this condition; these
 * tests pin it at the repository.
 */
describe('CallReservationsRepository.claimManyForSettlement (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  const { balances, reservations } = ledgerRepositories();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource(LEDGER_ENTITIES));
  });
  afterAll(() => close());

  /** A subscribed organization with one reserved call. */
  async function reserved(): Promise<{ organizationId: string; callId: string }> {
    const organizationId = await subscribedOrganization(dataSource);
    const callId = randomUUID();
    await inTransaction(dataSource, async (tx) => {
      const locked = await balances.lock(tx, organizationId);
      await reservations.reserve(tx, locked, [{ callId, allocations: [], covered: true }]);
    });
    return { organizationId, callId };
  }

  /** Until some session of this database waits on a lock (the second settler on the first one's row). */
  async function untilALockIsAwaited(): Promise<void> {
    for (;;) {
      const [{ n }] = await dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (n > 0) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('claims a reservation once: settling an already settled one claims nothing', async () => {
    const { organizationId, callId } = await reserved();
    const first = await inTransaction(dataSource, (tx) =>
      reservations.claimManyForSettlement(tx, organizationId, [callId]),
    );
    expect(first.map((r) => [r.callId, r.status])).toEqual([[callId, 'settled']]);
    const again = await inTransaction(dataSource, (tx) =>
      reservations.claimManyForSettlement(tx, organizationId, [callId]),
    );
    expect(again).toEqual([]);
  });

  it('two settlers racing: the second waits on the first one’s row lock, then claims nothing', async () => {
    const { organizationId, callId } = await reserved();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first: CallReservation[] | undefined;
    const firstTx = inTransaction(dataSource, async (tx) => {
      first = await reservations.claimManyForSettlement(tx, organizationId, [callId]);
      await held;
    });
    while (first === undefined) await new Promise((r) => setTimeout(r, 5));
    // Blocks on the row the first settler updated, until that one commits.
    const second = inTransaction(dataSource, (tx) => reservations.claimManyForSettlement(tx, organizationId, [callId]));
    await untilALockIsAwaited();
    release();
    await firstTx;
    expect(first.map((r) => r.callId)).toEqual([callId]);
    expect(await second).toEqual([]);
  });

  it('claims only the organization’s own reservation', async () => {
    const { organizationId, callId } = await reserved();
    const other = await inTransaction(dataSource, (tx) =>
      reservations.claimManyForSettlement(tx, randomUUID(), [callId]),
    );
    expect(other).toEqual([]);
    const mine = await inTransaction(dataSource, (tx) =>
      reservations.claimManyForSettlement(tx, organizationId, [callId]),
    );
    expect(mine).toHaveLength(1);
  });
});
