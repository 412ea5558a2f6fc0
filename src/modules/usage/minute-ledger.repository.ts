import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { CALL_LEDGER_TYPES, LedgerType, MinuteLedgerEntry } from './entities/minute-ledger-entry.entity';
import { CallTotals } from './call-totals';
import { LockedBalance } from './usage-balances.repository';

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
 * The SQL of `minute_ledger`. A ledger row never comes alone: the same statement moves the balance
 * (`usage_balances`) and rolls call rows into `usage_daily_totals`, because it runs under the balance lock
 * (UsageBalancesRepository.lock), where every round trip lengthens the next caller's wait.
 */
@Injectable()
export class MinuteLedgerRepository {
  /**
   * Appends one ledger row and moves the balance by its amount (releasing `releasedMins` reserved minutes),
   * rolling call rows into the daily totals, in one statement. Rows are stamped strictly after the previous one,
   * so `balanceAfterMins` chains in (createdAt, id) order even when two rows fall in the same millisecond.
   */
  async append(tx: Tx, locked: LockedBalance, input: EntryInput): Promise<MinuteLedgerEntry> {
    const { balance } = locked;
    const previous = balance.lastEntryAt?.getTime() ?? 0;
    const createdAt = new Date(Math.max(locked.now.getTime(), previous + 1));
    const balanceAfter = balance.balanceMins + input.amountMins;
    const reservedAfter = balance.reservedMins - (input.releasedMins ?? 0);
    if (balanceAfter < 0) throw new Error(`ledger invariant: balance of ${balance.organizationId} would go negative`);
    const entry = tx.create(MinuteLedgerEntry, {
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
    await tx.query(
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

  /** Whether the call already has its ledger row (a settlement is written once per call). */
  async hasCallEntry(tx: Tx, callId: string, direction: 'inbound' | 'outbound'): Promise<boolean> {
    return (await this.callsWithEntry(tx, [{ callId, direction }])).has(callId);
  }

  /** Which of these calls already have their ledger row, in one statement. */
  async callsWithEntry(
    tx: Tx,
    calls: readonly { callId: string; direction: 'inbound' | 'outbound' }[],
  ): Promise<Set<string>> {
    // The type condition is the call-row index's own (ux_minute_ledger_call), so the index serves the lookup.
    const rows: { call_id: string; type: LedgerType }[] = await tx.query(
      `SELECT call_id, type FROM minute_ledger
        WHERE call_id = ANY($1) AND type IN (${CALL_LEDGER_TYPES.map((t) => `'${t}'`).join(', ')})`,
      [calls.map((c) => c.callId)],
    );
    const found = new Set(rows.map((r) => `${r.call_id} ${r.type}`));
    return new Set(calls.filter((c) => found.has(`${c.callId} ${c.direction}_call`)).map((c) => c.callId));
  }

  /** A read: the organization's ledger rows as a query the history narrows and pages (alias `e`). */
  /** The organization's newest ledger row, read in `tx` (which appended it). */
  latest(tx: Tx, organizationId: string): Promise<MinuteLedgerEntry> {
    return tx.findOneOrFail(MinuteLedgerEntry, { where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Totals of the organization's newest `limit` call rows in [from, to), and whether more rows were left out. */
  async callTotals(
    manager: EntityManager,
    organizationId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<{ totals: CallTotals; more: boolean }> {
    const [r] = await manager.query(
      `SELECT count(*) FILTER (WHERE rn <= $4)::int AS calls,
              count(*) FILTER (WHERE rn <= $4 AND type = 'inbound_call')::int AS inbound_calls,
              coalesce(sum(duration_mins) FILTER (WHERE rn <= $4), 0)::float8 AS talk_mins,
              coalesce(sum(duration_mins) FILTER (WHERE rn <= $4 AND type = 'inbound_call'), 0)::float8 AS inbound_mins,
              coalesce(-sum(amount_mins) FILTER (WHERE rn <= $4), 0)::int AS deducted_mins,
              coalesce(bool_or(rn > $4), false) AS more
         FROM (SELECT type, duration_mins, amount_mins, row_number() OVER (ORDER BY created_at DESC, id DESC) AS rn
                 FROM (SELECT type, duration_mins, amount_mins, created_at, id FROM minute_ledger
                        WHERE organization_id = $1 AND type = ANY($5) AND created_at >= $2 AND created_at < $3
                        ORDER BY created_at DESC, id DESC LIMIT $4 + 1) capped) numbered`,
      [organizationId, from, to, limit, CALL_LEDGER_TYPES],
    );
    return {
      totals: {
        calls: Number(r.calls),
        inboundCalls: Number(r.inbound_calls),
        talkMins: Number(r.talk_mins),
        inboundMins: Number(r.inbound_mins),
        deductedMins: Number(r.deducted_mins),
      },
      more: r.more === true,
    };
  }

  historyQuery(manager: EntityManager, organizationId: string): SelectQueryBuilder<MinuteLedgerEntry> {
    return manager
      .createQueryBuilder(MinuteLedgerEntry, 'e')
      .where('e.organizationId = :organizationId', { organizationId });
  }
}
