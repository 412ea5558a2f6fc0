import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/infra/database/tx';
import { CallReservation } from '../../src/modules/usage/entities/call-reservation.entity';
import { MinuteGrant } from '../../src/modules/usage/entities/minute-grant.entity';
import { MinuteLedgerEntry } from '../../src/modules/usage/entities/minute-ledger-entry.entity';
import { UsageBalance } from '../../src/modules/usage/entities/usage-balance.entity';
import { UsageDailyTotal } from '../../src/modules/usage/entities/usage-daily-total.entity';
import { grantState } from '../../src/modules/usage/minute-grants.repository';
import { EntryInput } from '../../src/modules/usage/minute-ledger.repository';
import { LockedBalance } from '../../src/modules/usage/usage-balances.repository';
import { openTestDataSource } from '../support/test-data-source';
import { LEDGER_ENTITIES, ledgerRepositories } from './ledger-parts';

/**
 * The ledger's repositories against real PostgreSQL: the balance lock that serializes an organization's
 * ledger writes, and the one-statement writes made under it (a ledger row moves the balance and the daily
 * totals; a reservation holds minutes on its grants and the balance; a settlement claims its reservation once).
 */
describe('ledger repositories (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  const { balances, grants, ledger, reservations, grantMinutes } = ledgerRepositories();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource(LEDGER_ENTITIES));
  });
  afterAll(() => close());

  const TOPUP = { kind: 'topup' as const, subscriptionId: null, periodStart: null, expiresAt: null };
  const entry = (amountMins: number, values: Partial<EntryInput> = {}): EntryInput => ({
    type: 'addon_purchase',
    amountMins,
    description: `${amountMins} minutes`,
    productType: 'outreach',
    ...values,
  });
  const balanceOf = async (organizationId: string) =>
    (await dataSource.manager.findOneByOrFail(UsageBalance, { organizationId })) as UsageBalance;

  /** An organization holding one top-up grant of `mins` minutes. */
  async function withTopup(mins: number): Promise<{ organizationId: string; grant: MinuteGrant }> {
    const organizationId = randomUUID();
    const grant = await inTransaction(dataSource, async (tx) =>
      grantMinutes.execute(tx, await balances.lock(tx, organizationId), { ...TOPUP, grantedMins: mins }, entry(mins)),
    );
    return { organizationId, grant };
  }

  describe('UsageBalancesRepository.lock', () => {
    it('creates an empty balance row on an organization’s first ledger action', async () => {
      const organizationId = randomUUID();
      const locked = await inTransaction(dataSource, (tx) => balances.lock(tx, organizationId));
      expect(locked.balance).toMatchObject({ organizationId, balanceMins: 0, reservedMins: 0, lastEntryAt: null });
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 0, reservedMins: 0 });
    });

    it('holds the balance row FOR UPDATE until the transaction ends', async () => {
      const { organizationId } = await withTopup(5);
      const tryLock = () =>
        dataSource.query(`SELECT 1 FROM usage_balances WHERE organization_id = $1 FOR UPDATE NOWAIT`, [organizationId]);
      await inTransaction(dataSource, async (tx) => {
        await balances.lock(tx, organizationId);
        await expect(tryLock()).rejects.toMatchObject({ driverError: { code: '55P03' } });
      });
      await expect(tryLock()).resolves.toHaveLength(1);
    });
  });

  describe('MinuteLedgerRepository.append', () => {
    it('moves the balance by the amount and releases the reserved minutes it names, in one statement', async () => {
      const { organizationId } = await withTopup(10);
      await dataSource.query(`UPDATE usage_balances SET reserved_mins = 3 WHERE organization_id = $1`, [
        organizationId,
      ]);
      await inTransaction(dataSource, async (tx) => {
        const locked = await balances.lock(tx, organizationId);
        await ledger.append(tx, locked, entry(-2, { type: 'outbound_call', callId: randomUUID(), releasedMins: 1 }));
      });
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 8, reservedMins: 2 });
      const rows = await dataSource.manager.find(MinuteLedgerEntry, {
        where: { organizationId },
        order: { createdAt: 'ASC', id: 'ASC' },
      });
      expect(rows.map((r) => [r.amountMins, r.balanceAfterMins])).toEqual([
        [10, 10],
        [-2, 8],
      ]);
    });

    it('rolls call rows into the day’s totals and leaves other rows out', async () => {
      const { organizationId } = await withTopup(10);
      await inTransaction(dataSource, async (tx) => {
        const locked = await balances.lock(tx, organizationId);
        const call = (type: 'inbound_call' | 'outbound_call', mins: number) =>
          entry(-mins, { type, callId: randomUUID(), durationMins: mins });
        await ledger.append(tx, locked, call('outbound_call', 2));
        await ledger.append(tx, locked, call('inbound_call', 3));
        await ledger.append(tx, locked, entry(4));
      });
      const totals = await dataSource.manager.findBy(UsageDailyTotal, { organizationId });
      expect(totals).toHaveLength(1);
      expect(totals[0]).toMatchObject({ calls: 2, inboundCalls: 1, talkMins: 5, inboundMins: 3, deductedMins: 5 });
    });

    it('stamps each row strictly after the previous one, even at the same database clock', async () => {
      const { organizationId } = await withTopup(10);
      const stamps = await inTransaction(dataSource, async (tx) => {
        const locked: LockedBalance = await balances.lock(tx, organizationId);
        const first = await ledger.append(tx, locked, entry(1));
        const second = await ledger.append(tx, locked, entry(1));
        return [first.createdAt.getTime(), second.createdAt.getTime()];
      });
      expect(stamps[1]).toBeGreaterThan(stamps[0]);
    });

    it('refuses to take the balance below zero and writes nothing', async () => {
      const { organizationId } = await withTopup(2);
      await expect(
        inTransaction(dataSource, async (tx) => ledger.append(tx, await balances.lock(tx, organizationId), entry(-3))),
      ).rejects.toThrow('would go negative');
      expect((await balanceOf(organizationId)).balanceMins).toBe(2);
      expect(await dataSource.manager.countBy(MinuteLedgerEntry, { organizationId })).toBe(1);
    });

    it('knows whether a call already has its ledger row', async () => {
      const { organizationId } = await withTopup(5);
      const callId = randomUUID();
      await inTransaction(dataSource, async (tx) => {
        await ledger.append(tx, await balances.lock(tx, organizationId), entry(-1, { type: 'outbound_call', callId }));
      });
      expect(await inTransaction(dataSource, (tx) => ledger.hasCallEntry(tx, callId, 'outbound'))).toBe(true);
      expect(await inTransaction(dataSource, (tx) => ledger.hasCallEntry(tx, callId, 'inbound'))).toBe(false);
    });
  });

  describe('GrantMinutesCommand', () => {
    it('writes the grant and the ledger row that records it', async () => {
      const { organizationId, grant } = await withTopup(7);
      expect(grant).toMatchObject({ organizationId, grantedMins: 7, remainingMins: 7, reservedMins: 0 });
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 7 });
      expect(await dataSource.manager.countBy(MinuteLedgerEntry, { organizationId })).toBe(1);
    });

    it('writes no ledger row for a zero grant with a zero entry', async () => {
      const { organizationId } = await withTopup(0);
      expect(await dataSource.manager.countBy(MinuteGrant, { organizationId })).toBe(1);
      expect(await dataSource.manager.countBy(MinuteLedgerEntry, { organizationId })).toBe(0);
    });
  });

  describe('MinuteGrantsRepository.saveStates', () => {
    it('writes back only the grants whose state changed, adding the minutes used', async () => {
      const { organizationId, grant: changed } = await withTopup(10);
      const unchanged = await inTransaction(dataSource, async (tx) =>
        grantMinutes.execute(tx, await balances.lock(tx, organizationId), { ...TOPUP, grantedMins: 5 }, entry(5)),
      );
      // Changed behind the repository's back: a write of the unchanged grant would put it back to 5.
      await dataSource.query(`UPDATE minute_grants SET remaining_mins = 4 WHERE id = $1`, [unchanged.id]);
      const states = [changed, unchanged].map(grantState);
      states[0] = { ...states[0], remainingMins: 6, reservedMins: 1 };
      await inTransaction(dataSource, (tx) =>
        grants.saveStates(tx, [changed, unchanged], states, new Map([[changed.id, 4]])),
      );
      const after = await dataSource.manager.findBy(MinuteGrant, { organizationId });
      const byId = new Map(after.map((g) => [g.id, g]));
      expect(byId.get(changed.id)).toMatchObject({ remainingMins: 6, reservedMins: 1, usedMins: 4 });
      expect(byId.get(unchanged.id)).toMatchObject({ remainingMins: 4, usedMins: 0 });
    });
  });

  describe('CallReservationsRepository', () => {
    it('reserve holds the minutes on their grants and the balance and records one row per call', async () => {
      const { organizationId, grant } = await withTopup(10);
      const [first, second] = [randomUUID(), randomUUID()];
      await inTransaction(dataSource, async (tx) => {
        const locked = await balances.lock(tx, organizationId);
        await reservations.reserve(tx, locked, [
          { callId: first, allocations: [{ grantId: grant.id, mins: 1 }], covered: false },
          { callId: second, allocations: [{ grantId: grant.id, mins: 1 }], covered: false },
        ]);
        expect(locked.balance.reservedMins).toBe(2);
      });
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 10, reservedMins: 2 });
      expect(await dataSource.manager.findOneByOrFail(MinuteGrant, { id: grant.id })).toMatchObject({
        remainingMins: 10,
        reservedMins: 2,
      });
      const other = randomUUID();
      expect(
        await inTransaction(dataSource, (tx) => reservations.reservedCallIds(tx, organizationId, [first, other])),
      ).toEqual(new Set([first]));
      expect(await inTransaction(dataSource, (tx) => reservations.reservedCallIds(tx, randomUUID(), [first]))).toEqual(
        new Set(),
      );
    });

    /** An organization with one open reservation of a call its plan covers (nothing held). */
    async function coveredReservation(): Promise<{ organizationId: string; callId: string }> {
      const { organizationId } = await withTopup(1);
      const callId = randomUUID();
      await inTransaction(dataSource, async (tx) => {
        await reservations.reserve(tx, await balances.lock(tx, organizationId), [
          { callId, allocations: [], covered: true },
        ]);
      });
      return { organizationId, callId };
    }

    it('claimForSettlement claims an open reservation once; a second claim gets nothing', async () => {
      const { organizationId, callId } = await coveredReservation();
      const claimed = await inTransaction(dataSource, (tx) =>
        reservations.claimForSettlement(tx, organizationId, callId),
      );
      expect(claimed).toMatchObject({ callId, status: 'settled', covered: true });
      expect(
        await inTransaction(dataSource, (tx) => reservations.claimForSettlement(tx, organizationId, callId)),
      ).toBeUndefined();
    });

    it('claimForSettlement makes a concurrent claim of the same call wait for the first to commit', async () => {
      const { organizationId, callId } = await coveredReservation();
      await inTransaction(dataSource, async (tx) => {
        expect(await reservations.claimForSettlement(tx, organizationId, callId)).toBeDefined();
        // The claimed row is locked: another settlement could not take it without waiting.
        await expect(
          dataSource.query(`SELECT 1 FROM call_reservations WHERE call_id = $1 FOR UPDATE NOWAIT`, [callId]),
        ).rejects.toMatchObject({ driverError: { code: '55P03' } });
      });
      expect(
        await inTransaction(dataSource, (tx) => reservations.claimForSettlement(tx, organizationId, callId)),
      ).toBeUndefined();
    });

    it('claimForSettlement: a settler racing the first waits on its row lock, then claims nothing', async () => {
      const { organizationId, callId } = await coveredReservation();
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let first: CallReservation | undefined | null = null;
      const firstTx = inTransaction(dataSource, async (tx) => {
        first = await reservations.claimForSettlement(tx, organizationId, callId);
        await held;
      });
      while (first === null) await new Promise((r) => setTimeout(r, 5));
      const second = inTransaction(dataSource, (tx) => reservations.claimForSettlement(tx, organizationId, callId));
      // Only once the second settler waits on the row the first one updated does the first commit.
      await untilALockIsAwaited();
      release();
      await firstTx;
      expect(first).toMatchObject({ callId, status: 'settled' });
      expect(await second).toBeUndefined();
    });

    it('claimForSettlement claims only the organization’s own reservation', async () => {
      const { organizationId, callId } = await coveredReservation();
      expect(
        await inTransaction(dataSource, (tx) => reservations.claimForSettlement(tx, randomUUID(), callId)),
      ).toBeUndefined();
      expect(
        await inTransaction(dataSource, (tx) => reservations.claimForSettlement(tx, organizationId, callId)),
      ).toBeDefined();
    });
  });

  /** Until some session of this database waits on a lock. */
  async function untilALockIsAwaited(): Promise<void> {
    for (;;) {
      const [{ n }] = await dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (n > 0) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
});
