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
  /** Appends one ledger row (appendMany of one). */
  async append(tx: Tx, locked: LockedBalance, input: EntryInput): Promise<MinuteLedgerEntry> {
    const [entry] = await this.appendMany(tx, locked, [input]);
    return entry;
  }

  /**
   * Appends ledger rows in the order given and moves the balance by their amounts (releasing their `releasedMins`
   * reserved minutes), rolling call rows into the daily totals, in one statement whatever their number: each row's
   * `balanceAfterMins` is computed here from the previous one's, and each is stamped strictly after the previous
   * one, so the chain holds in (createdAt, id) order even when rows fall in the same millisecond. Throws before
   * writing anything if any row would take the balance below zero.
   */
  async appendMany(tx: Tx, locked: LockedBalance, inputs: readonly EntryInput[]): Promise<MinuteLedgerEntry[]> {
    if (!inputs.length) return [];
    const { balance } = locked;
    let previous = balance.lastEntryAt?.getTime() ?? 0;
    let balanceAfter = balance.balanceMins;
    let reservedAfter = balance.reservedMins;
    const entries = inputs.map((input) => {
      const createdAt = new Date(Math.max(locked.now.getTime(), previous + 1));
      previous = createdAt.getTime();
      balanceAfter += input.amountMins;
      reservedAfter -= input.releasedMins ?? 0;
      if (balanceAfter < 0) throw new Error(`ledger invariant: balance of ${balance.organizationId} would go negative`);
      return tx.create(MinuteLedgerEntry, {
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
    });
    const last = entries[entries.length - 1].createdAt;
    await tx.query(
      `WITH e AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb) AS e(id uuid, type text, amount_mins int, balance_after_mins int,
                duration_mins double precision, included_in_plan boolean, description text, product_type text,
                provider_call_id text, call_id uuid, excess_mins int, created_at timestamptz)
       ), entry AS (
         INSERT INTO minute_ledger (id, organization_id, type, amount_mins, balance_after_mins, duration_mins,
                                    included_in_plan, description, product_type, provider_call_id, call_id,
                                    excess_mins, created_at)
         SELECT id, $1, type, amount_mins, balance_after_mins, duration_mins, included_in_plan, description,
                product_type, provider_call_id, call_id, excess_mins, created_at
           FROM e
       ), daily AS (
         INSERT INTO usage_daily_totals AS d
                (organization_id, day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins)
         SELECT $1, (e.created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE e.type = 'inbound_call'),
                sum(coalesce(e.duration_mins, 0)),
                coalesce(sum(coalesce(e.duration_mins, 0)) FILTER (WHERE e.type = 'inbound_call'), 0),
                -sum(e.amount_mins)
           FROM e
          WHERE e.type = ANY($3::text[])
          GROUP BY 2
         ON CONFLICT (organization_id, day) DO UPDATE SET
           calls = d.calls + EXCLUDED.calls, inbound_calls = d.inbound_calls + EXCLUDED.inbound_calls,
           talk_mins = d.talk_mins + EXCLUDED.talk_mins, inbound_mins = d.inbound_mins + EXCLUDED.inbound_mins,
           deducted_mins = d.deducted_mins + EXCLUDED.deducted_mins
       )
       UPDATE usage_balances
          SET balance_mins = $4, reserved_mins = $5, last_entry_at = $6, updated_at = now()
        WHERE organization_id = $1`,
      [
        balance.organizationId,
        JSON.stringify(
          entries.map((x) => ({
            id: x.id,
            type: x.type,
            amount_mins: x.amountMins,
            balance_after_mins: x.balanceAfterMins,
            duration_mins: x.durationMins,
            included_in_plan: x.includedInPlan,
            description: x.description,
            product_type: x.productType,
            provider_call_id: x.providerCallId,
            call_id: x.callId,
            excess_mins: x.excessMins,
            created_at: x.createdAt.toISOString(),
          })),
        ),
        CALL_LEDGER_TYPES,
        balanceAfter,
        reservedAfter,
        last,
      ],
    );
    Object.assign(balance, { balanceMins: balanceAfter, reservedMins: reservedAfter, lastEntryAt: last });
    return entries;
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
