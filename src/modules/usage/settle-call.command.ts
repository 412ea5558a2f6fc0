import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeyedBatcher } from '../../common/concurrency/keyed-batcher';
import { isUniqueViolation } from '../../infra/database/pg-errors';
import { inTransaction, Tx } from '../../infra/database/tx';
import {
  GrantState,
  applySettlement,
  consumptionOrder,
  planSettlement,
  SettlementPlan,
  startedMinutes,
  talkMinutes,
} from './allocation';
import { CallSettlement } from './call-billing.port';
import { CallReservationsRepository } from './call-reservations.repository';
import { coversCall } from './entitlements';
import { CALL_LEDGER_ROW_UNIQUE } from './entities/minute-ledger-entry.entity';
import { HoldingsRepository } from './holdings.repository';
import { grantState, MinuteGrantsRepository } from './minute-grants.repository';
import { EntryInput, MinuteLedgerRepository } from './minute-ledger.repository';
import { UsageBalancesRepository } from './usage-balances.repository';

/** Calls of one organization settled in one transaction at most (bounds the time the balance lock is held). */
const MAX_SETTLEMENT_BATCH = 100;

/**
 * Settles a call once: its reservation is replaced by its started minutes (per-minute billing), as one ledger
 * row, so a retried or concurrent settlement of the same call finds the ledger row written and changes nothing.
 * Either in the transaction that ends the calls (`executeIn`: the calls of one organization ending at the same
 * moment, one acquisition of the balance lock that its dispatches wait for too), or in a transaction of its own
 * (`execute`: a deferred call's release), shared by the organization's settlements arriving together.
 */
@Injectable()
export class SettleCallCommand {
  /** Each settlement's own outcome: a batch that fails is settled again call by call. */
  private readonly batches = new KeyedBatcher<CallSettlement, unknown>(
    (_, settlements) => this.settleBatch(settlements),
    MAX_SETTLEMENT_BATCH,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly balances: UsageBalancesRepository,
    private readonly grants: MinuteGrantsRepository,
    private readonly ledger: MinuteLedgerRepository,
    private readonly reservations: CallReservationsRepository,
    private readonly holdings: HoldingsRepository,
  ) {}

  async execute(s: CallSettlement): Promise<void> {
    const error = await this.batches.submit(s.organizationId, s);
    if (error) throw error;
  }

  /**
   * Settles calls of one organization in the caller's transaction (the one that ends them: CallBilling.settleCallsIn);
   * a call named twice is settled once.
   */
  async executeIn(tx: Tx, settlements: readonly CallSettlement[]): Promise<void> {
    if (!settlements.length) return;
    await this.settle(tx, uniqueCalls(settlements));
  }

  /**
   * One transaction for the batch; if it fails (a concurrent settlement of an unreserved call wrote its ledger
   * row first, or any other error), one per call, so each settlement gets its own outcome. A call settled twice
   * within the batch (a repeated report) is settled once.
   */
  private async settleBatch(settlements: CallSettlement[]): Promise<unknown[]> {
    const unique = uniqueCalls(settlements);
    if (unique.length > 1) {
      try {
        await inTransaction(this.dataSource, (tx) => this.settle(tx, unique));
        return settlements.map(() => null);
      } catch {
        // Settled one by one below: a transaction that failed wrote nothing.
      }
    }
    const outcomes = new Map<string, unknown>();
    for (const s of unique)
      outcomes.set(
        s.callId,
        await this.settleAlone(s).then(
          () => null,
          (error) => error,
        ),
      );
    return settlements.map((s) => outcomes.get(s.callId));
  }

  private async settleAlone(s: CallSettlement): Promise<void> {
    try {
      await inTransaction(this.dataSource, (tx) => this.settle(tx, [s]));
    } catch (error) {
      // A concurrent settlement of the same unreserved call (inbound) wrote its ledger row first: settled once.
      if (!isUniqueViolation(error, CALL_LEDGER_ROW_UNIQUE)) throw error;
    }
  }

  /**
   * Idempotent per call, with everything but the ledger arithmetic done before the organization's lock: claiming
   * the reservations (their row locks) makes a second settlement of the same call wait, then find nothing to
   * release and the ledger row written; calls never reserved (inbound) rely on the ledger's unique call row
   * instead. Under the lock the calls are planned in turn, each on the grants the previous one left.
   */
  private async settle(tx: Tx, settlements: readonly CallSettlement[]): Promise<void> {
    const organizationId = settlements[0].organizationId;
    const claimed = await this.reservations.claimManyForSettlement(
      tx,
      organizationId,
      settlements.map((s) => s.callId),
    );
    const reservations = new Map(claimed.map((r) => [r.callId, r]));
    const written = await this.ledger.callsWithEntry(tx, settlements);
    const pending = settlements.filter((s) => !written.has(s.callId));
    if (!pending.length) return;
    const locked = await this.balances.lock(tx, organizationId);
    const { entitlements: e, grants } = await this.holdings.load(tx, organizationId, locked.now);
    const now = locked.now.getTime();
    let states = grants.map(grantState);
    const used = new Map<string, number>();
    const entries: EntryInput[] = [];
    for (const s of pending) {
      const reservation = reservations.get(s.callId);
      const held = reservation
        ? { allocations: reservation.allocations, reservedAt: reservation.createdAt.getTime() }
        : null;
      const coverage = coversCall(e, s.direction);
      const started = startedMinutes(s.durationSeconds);
      const plan = planSettlement({
        grants: states,
        reservation: held,
        startedMins: started,
        covered: coverage !== null,
        now,
      });
      for (const [grantId, mins] of usePerGrant(plan, excessAnchor(states, held, now)))
        used.set(grantId, (used.get(grantId) ?? 0) + mins);
      states = applySettlement(states, held, plan);
      entries.push({
        type: `${s.direction}_call`,
        amountMins: -plan.chargedMins,
        durationMins: talkMinutes(s.durationSeconds),
        includedInPlan: coverage !== null,
        description: describeCall(s.direction, started, plan.excessMins, coverage),
        productType: coverage === 'receptionist' ? 'receptionist' : 'outreach',
        providerCallId: s.providerCallId,
        callId: s.callId,
        excessMins: plan.excessMins,
        releasedMins: held?.allocations.reduce((sum, a) => sum + a.mins, 0) ?? 0,
      });
      if (plan.expiredMins > 0) {
        entries.push({
          type: 'monthly_renewal',
          amountMins: -plan.expiredMins,
          description: `${plan.expiredMins} reserved minute(s) of an ended period expired after the call settled`,
          productType: 'outreach',
        });
      }
    }
    await this.grants.saveStates(tx, grants, states, used);
    await this.ledger.appendMany(tx, locked, entries);
  }
}

/** One settlement per call, in the order the calls first appear: a call named twice (a repeated report) settles once. */
function uniqueCalls(settlements: readonly CallSettlement[]): CallSettlement[] {
  return [...new Map(settlements.map((s) => [s.callId, s])).values()];
}

/**
 * Usage per allocation: charged minutes where they were drawn, excess on the call's original allocation, so
 * an item's usage may exceed its allowance (an active call finished past it).
 */
function usePerGrant(plan: SettlementPlan, anchor: string | undefined): Map<string, number> {
  const uses = new Map(plan.charges.map((c) => [c.grantId, c.mins]));
  if (plan.excessMins > 0 && anchor) uses.set(anchor, (uses.get(anchor) ?? 0) + plan.excessMins);
  return uses;
}

/**
 * Where a call's excess is booked: the included (or trial) allocation it was reserved on, else the included
 * allocation that was current when it was reserved; a call on top-ups alone books excess on its top-up.
 */
function excessAnchor(
  states: GrantState[],
  held: { allocations: { grantId: string; mins: number }[]; reservedAt: number } | null,
  now: number,
): string | undefined {
  const byId = new Map(states.map((g) => [g.id, g]));
  const reservedOn = (held?.allocations ?? []).map((a) => byId.get(a.grantId)).filter((g) => g !== undefined);
  const at = held?.reservedAt ?? now;
  const current = consumptionOrder(
    states.filter((g) => g.kind !== 'topup' && g.grantedAt <= at && (g.expiresAt === null || g.expiresAt > at)),
  );
  return (reservedOn.find((g) => g.kind !== 'topup') ?? current[0] ?? reservedOn[0] ?? consumptionOrder(states)[0])?.id;
}

function describeCall(
  direction: 'inbound' | 'outbound',
  started: number,
  excess: number,
  coverage: 'complimentary' | 'receptionist' | null,
): string {
  const base = `${direction === 'inbound' ? 'Inbound' : 'Outbound'} call, ${started} started minute(s)`;
  if (coverage) return `${base}, covered by the ${coverage} plan`;
  return excess > 0 ? `${base}, ${excess} beyond the allowance (not charged)` : base;
}
