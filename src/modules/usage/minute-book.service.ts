import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Allocation, GrantState } from './allocation';
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
  /** Reserved minutes released with this entry (a settlement hands back what its call held). */
  releasedMins?: number;
}

/**
 * The ledger's write primitives. Every method runs inside the caller's transaction after `lock`, which takes the
 * organization's balance row FOR UPDATE: that single lock serializes reservations, settlements and grants.
 */
@Injectable()
export class MinuteBook {
  async lock(manager: EntityManager, organizationId: string): Promise<LockedBalance> {
    const select = () =>
      manager.query(
        `SELECT balance_mins, reserved_mins, last_entry_at, clock_timestamp() AS now
           FROM usage_balances WHERE organization_id = $1 FOR UPDATE`,
        [organizationId],
      );
    let [row] = await select();
    if (!row) {
      // First ledger action of this organization: create its balance row (a racing creator wins harmlessly).
      await manager.query(
        `INSERT INTO usage_balances (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING`,
        [organizationId],
      );
      [row] = await select();
    }
    const balance = manager.create(UsageBalance, {
      organizationId,
      balanceMins: Number(row.balance_mins),
      reservedMins: Number(row.reserved_mins),
      lastEntryAt: row.last_entry_at ? new Date(row.last_entry_at) : null,
    });
    return { balance, now: new Date(row.now) };
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

  /**
   * Writes back the grants whose state changed, plus minutes used per grant (`usedMins`), in one statement
   * whatever the number of grants.
   */
  async saveStates(
    manager: EntityManager,
    grants: MinuteGrant[],
    states: GrantState[],
    used: ReadonlyMap<string, number> = new Map(),
  ): Promise<void> {
    const byId = new Map(states.map((s) => [s.id, s]));
    const changes = grants.flatMap((grant) => {
      const s = byId.get(grant.id) ?? grant;
      const usedMins = used.get(grant.id) ?? 0;
      const same =
        s.remainingMins === grant.remainingMins && s.reservedMins === grant.reservedMins && s.closed === grant.closed;
      if (same && !usedMins) return [];
      Object.assign(grant, {
        remainingMins: s.remainingMins,
        reservedMins: s.reservedMins,
        closed: s.closed,
        usedMins: grant.usedMins + usedMins,
      });
      return [{ id: grant.id, remaining: s.remainingMins, reserved: s.reservedMins, closed: s.closed, used: usedMins }];
    });
    if (!changes.length) return;
    await manager.query(
      `UPDATE minute_grants g
          SET remaining_mins = c.remaining, reserved_mins = c.reserved, closed = c.closed,
              used_mins = g.used_mins + c.used
         FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, remaining int, reserved int, closed boolean, used int)
        WHERE g.id = c.id`,
      [JSON.stringify(changes)],
    );
  }

  /**
   * Appends one ledger row and moves the balance by its amount (releasing `releasedMins` reserved minutes),
   * rolling call rows into the daily totals, in one statement. Rows are stamped strictly after the previous one,
   * so `balanceAfterMins` chains in (createdAt, id) order even when two rows fall in the same millisecond.
   */
  async append(manager: EntityManager, locked: LockedBalance, input: EntryInput): Promise<MinuteLedgerEntry> {
    const { balance } = locked;
    const previous = balance.lastEntryAt?.getTime() ?? 0;
    const createdAt = new Date(Math.max(locked.now.getTime(), previous + 1));
    const balanceAfter = balance.balanceMins + input.amountMins;
    const reservedAfter = balance.reservedMins - (input.releasedMins ?? 0);
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
    await manager.query(
      `WITH entry AS (
         INSERT INTO minute_ledger (id, organization_id, type, amount_mins, balance_after_mins, duration_mins,
                                    included_in_plan, description, product_type, provider_call_id, call_id,
                                    excess_mins, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ), daily AS (
         INSERT INTO usage_daily_totals AS d
                (organization_id, day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins)
         SELECT $2, ($13::timestamptz AT TIME ZONE 'UTC')::date, 1, i.inbound, coalesce($6, 0),
                i.inbound * coalesce($6, 0), -$4
           FROM (SELECT CASE WHEN $3 = 'inbound_call' THEN 1 ELSE 0 END AS inbound) i
          WHERE $3 = ANY($14::text[])
         ON CONFLICT (organization_id, day) DO UPDATE SET
           calls = d.calls + 1, inbound_calls = d.inbound_calls + EXCLUDED.inbound_calls,
           talk_mins = d.talk_mins + EXCLUDED.talk_mins, inbound_mins = d.inbound_mins + EXCLUDED.inbound_mins,
           deducted_mins = d.deducted_mins + EXCLUDED.deducted_mins
       )
       UPDATE usage_balances
          SET balance_mins = $5, reserved_mins = $15, last_entry_at = $13, updated_at = now()
        WHERE organization_id = $2`,
      [
        entry.id,
        entry.organizationId,
        entry.type,
        entry.amountMins,
        balanceAfter,
        entry.durationMins,
        entry.includedInPlan,
        entry.description,
        entry.productType,
        entry.providerCallId,
        entry.callId,
        entry.excessMins,
        createdAt,
        CALL_LEDGER_TYPES,
        reservedAfter,
      ],
    );
    Object.assign(balance, { balanceMins: balanceAfter, reservedMins: reservedAfter, lastEntryAt: createdAt });
    return entry;
  }

  /**
   * Records dispatch reservations: their minutes held on their grants and on the balance, and one reservation
   * row each, in one statement, because it runs under the balance lock.
   */
  async reserve(
    manager: EntityManager,
    locked: LockedBalance,
    reservations: readonly { callId: string; allocations: Allocation[]; covered: boolean }[],
  ): Promise<void> {
    if (!reservations.length) return;
    const perGrant = new Map<string, number>();
    for (const a of reservations.flatMap((r) => r.allocations))
      perGrant.set(a.grantId, (perGrant.get(a.grantId) ?? 0) + a.mins);
    const held = [...perGrant.values()].reduce((sum, mins) => sum + mins, 0);
    await manager.query(
      `WITH held AS (
         UPDATE minute_grants g SET reserved_mins = g.reserved_mins + a.mins
           FROM jsonb_to_recordset($2::jsonb) AS a(id uuid, mins int)
          WHERE g.id = a.id AND g.organization_id = $1
       ), balance AS (
         UPDATE usage_balances SET reserved_mins = reserved_mins + $3, updated_at = now()
          WHERE organization_id = $1 AND $3 <> 0
       )
       INSERT INTO call_reservations (id, organization_id, call_id, allocations, covered, status, created_at)
       SELECT r.id, $1, r.call_id, r.allocations, r.covered, 'reserved', $4
         FROM jsonb_to_recordset($5::jsonb) AS r(id uuid, call_id uuid, allocations jsonb, covered boolean)`,
      [
        locked.balance.organizationId,
        JSON.stringify([...perGrant].map(([id, mins]) => ({ id, mins }))),
        held,
        locked.now,
        JSON.stringify(
          reservations.map((r) => ({
            id: uuidv7(),
            call_id: r.callId,
            allocations: r.allocations,
            covered: r.covered,
          })),
        ),
      ],
    );
    locked.balance.reservedMins += held;
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
