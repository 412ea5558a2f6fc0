import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { GrantState } from './allocation';
import { UsageBalance } from './entities/usage-balance.entity';
import { MinuteGrant } from './entities/minute-grant.entity';
import { CALL_LEDGER_TYPES, LedgerType, MinuteLedgerEntry } from './entities/minute-ledger-entry.entity';

/** The locked balance of one organization, with the database clock read under the lock. */
export interface LockedBalance {
  balance: UsageBalance;
  now: Date;
}

export interface EntryInput {
  type: LedgerType;
  amountMins: number;
  description: string;
  productType: string;
  durationMins?: number | null;
  includedInPlan?: boolean;
  providerCallId?: string | null;
  callId?: string | null;
  excessMins?: number;
}

/**
 * The ledger's write primitives. Every method runs inside the caller's transaction after `lock`, which takes the
 * organization's balance row FOR UPDATE: that single lock serializes reservations, settlements and grants.
 */
@Injectable()
export class MinuteBook {
  async lock(manager: EntityManager, organizationId: string): Promise<LockedBalance> {
    await manager.query(
      `INSERT INTO usage_balances (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING`,
      [organizationId],
    );
    const [row] = await manager.query(
      `SELECT balance_mins, reserved_mins, last_entry_at, clock_timestamp() AS now
         FROM usage_balances WHERE organization_id = $1 FOR UPDATE`,
      [organizationId],
    );
    const balance = manager.create(UsageBalance, {
      organizationId,
      balanceMins: Number(row.balance_mins),
      reservedMins: Number(row.reserved_mins),
      lastEntryAt: row.last_entry_at ? new Date(row.last_entry_at) : null,
    });
    return { balance, now: new Date(row.now) };
  }

  /** Grants that still hold minutes or may be drawn on (closed grants with calls in flight included). */
  openGrants(manager: EntityManager, organizationId: string): Promise<MinuteGrant[]> {
    return manager
      .createQueryBuilder(MinuteGrant, 'g')
      .where('g.organizationId = :organizationId', { organizationId })
      .andWhere('(g.closed = false OR g.reservedMins > 0)')
      .getMany();
  }

  toState(grant: MinuteGrant): GrantState {
    return {
      id: grant.id,
      kind: grant.kind,
      remainingMins: grant.remainingMins,
      reservedMins: grant.reservedMins,
      expiresAt: grant.expiresAt ? grant.expiresAt.getTime() : null,
      grantedAt: grant.grantedAt.getTime(),
      closed: grant.closed,
    };
  }

  /** Writes back the grants whose state changed. */
  async saveStates(manager: EntityManager, grants: MinuteGrant[], states: GrantState[]): Promise<void> {
    const byId = new Map(states.map((s) => [s.id, s]));
    for (const grant of grants) {
      const s = byId.get(grant.id);
      if (!s) continue;
      if (s.remainingMins === grant.remainingMins && s.reservedMins === grant.reservedMins && s.closed === grant.closed)
        continue;
      await manager.update(
        MinuteGrant,
        { id: grant.id },
        {
          remainingMins: s.remainingMins,
          reservedMins: s.reservedMins,
          closed: s.closed,
        },
      );
      Object.assign(grant, {
        remainingMins: s.remainingMins,
        reservedMins: s.reservedMins,
        closed: s.closed,
      });
    }
  }

  /**
   * Appends one ledger row and moves the balance by its amount. Rows are stamped strictly after the previous
   * one, so `balanceAfterMins` chains in (createdAt, id) order even when two rows fall in the same millisecond.
   */
  async append(manager: EntityManager, locked: LockedBalance, input: EntryInput): Promise<MinuteLedgerEntry> {
    const { balance } = locked;
    const previous = balance.lastEntryAt?.getTime() ?? 0;
    const createdAt = new Date(Math.max(locked.now.getTime(), previous + 1));
    const balanceAfter = balance.balanceMins + input.amountMins;
    if (balanceAfter < 0) throw new Error(`ledger invariant: balance of ${balance.organizationId} would go negative`);
    const entry = manager.create(MinuteLedgerEntry, {
      id: uuidv7(createdAt.getTime()),
      organizationId: balance.organizationId,
      type: input.type,
      amountMins: input.amountMins,
      balanceAfterMins: balanceAfter,
      durationMins: input.durationMins ?? null,
      includedInPlan: input.includedInPlan ?? false,
      description: input.description,
      productType: input.productType,
      providerCallId: input.providerCallId ?? null,
      callId: input.callId ?? null,
      excessMins: input.excessMins ?? 0,
      createdAt,
    });
    await manager.insert(MinuteLedgerEntry, entry);
    if (CALL_LEDGER_TYPES.includes(entry.type)) await this.addToDailyTotals(manager, entry);
    balance.balanceMins = balanceAfter;
    balance.lastEntryAt = createdAt;
    await this.saveBalance(manager, balance);
    return entry;
  }

  private async addToDailyTotals(manager: EntityManager, e: MinuteLedgerEntry): Promise<void> {
    const inbound = e.type === 'inbound_call' ? 1 : 0;
    const mins = e.durationMins ?? 0;
    await manager.query(
      `INSERT INTO usage_daily_totals AS d
              (organization_id, day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins)
       VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date, 1, $3, $4, $5, $6)
       ON CONFLICT (organization_id, day) DO UPDATE SET
         calls = d.calls + 1, inbound_calls = d.inbound_calls + $3, talk_mins = d.talk_mins + $4,
         inbound_mins = d.inbound_mins + $5, deducted_mins = d.deducted_mins + $6`,
      [e.organizationId, e.createdAt, inbound, mins, inbound * mins, -e.amountMins],
    );
  }

  async adjustReserved(manager: EntityManager, locked: LockedBalance, delta: number): Promise<void> {
    locked.balance.reservedMins += delta;
    await this.saveBalance(manager, locked.balance);
  }

  private async saveBalance(manager: EntityManager, balance: UsageBalance): Promise<void> {
    await manager.update(
      UsageBalance,
      { organizationId: balance.organizationId },
      {
        balanceMins: balance.balanceMins,
        reservedMins: balance.reservedMins,
        lastEntryAt: balance.lastEntryAt,
      },
    );
  }

  /** Adds a grant of minutes and its ledger row. */
  async grant(
    manager: EntityManager,
    locked: LockedBalance,
    grant: Pick<MinuteGrant, 'kind' | 'grantedMins' | 'subscriptionId' | 'periodStart' | 'expiresAt'>,
    entry: EntryInput,
  ): Promise<MinuteGrant> {
    const row = manager.create(MinuteGrant, {
      id: uuidv7(),
      organizationId: locked.balance.organizationId,
      ...grant,
      remainingMins: grant.grantedMins,
      reservedMins: 0,
      usedMins: 0,
      closed: false,
      grantedAt: locked.now,
    });
    await manager.insert(MinuteGrant, row);
    if (grant.grantedMins !== 0 || entry.amountMins !== 0) await this.append(manager, locked, entry);
    return row;
  }
}
