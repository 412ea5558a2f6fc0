import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import {
  GrantState,
  applyReservation,
  consumptionOrder,
  applySettlement,
  availableMins,
  planReservation,
  SettlementPlan,
  planSettlement,
  startedMinutes,
  talkMinutes,
} from './allocation';
import { CallBilling, CallSettlement, OutboundBlockedReason } from './call-billing.port';
import { CallReservation } from './entities/call-reservation.entity';
import { MinuteGrant } from './entities/minute-grant.entity';
import { MinuteLedgerEntry } from './entities/minute-ledger-entry.entity';
import { EntitlementsService, blockedReason, coversCall, hasOutboundPlan } from './entitlements.service';
import { MinuteBook } from './minute-book.service';

/**
 * The calls module's only door into the ledger (CallBilling port). Reservation and settlement both run under the
 * organization's balance lock, so concurrent dispatches never hold more minutes than are free.
 */
@Injectable()
export class CallBillingService extends CallBilling {
  constructor(
    private readonly dataSource: DataSource,
    private readonly book: MinuteBook,
    private readonly entitlements: EntitlementsService,
  ) {
    super();
  }

  async outboundBlockedReason(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OutboundBlockedReason | null> {
    const now = new Date();
    const [e, grants] = await Promise.all([
      this.entitlements.load(manager, organizationId, now),
      this.book.openGrants(manager, organizationId),
    ]);
    const states = grants.map((g) => this.book.toState(g));
    const balanceMins = states.reduce((s, g) => s + g.remainingMins, 0);
    return blockedReason(e, {
      balanceMins,
      availableMins: availableMins(states, now.getTime()),
    });
  }

  async reserveForDispatch(
    manager: EntityManager,
    organizationId: string,
    callId: string,
  ): Promise<{ reserved: true } | { reserved: false; reason: OutboundBlockedReason }> {
    const locked = await this.book.lock(manager, organizationId);
    const existing = await manager.findOneBy(CallReservation, {
      callId,
      organizationId,
    });
    if (existing) return { reserved: true };
    const e = await this.entitlements.load(manager, organizationId, locked.now);
    if (!hasOutboundPlan(e)) return { reserved: false, reason: 'OUTBOUND_PLAN_REQUIRED' };
    const covered = coversCall(e, 'outbound') !== null;
    let allocations: { grantId: string; mins: number }[] = [];
    if (!covered) {
      const grants = await this.book.openGrants(manager, organizationId);
      const states = grants.map((g) => this.book.toState(g));
      const plan = planReservation(states, locked.now.getTime(), 1);
      if (!plan) return { reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' };
      allocations = plan;
      await this.book.saveStates(manager, grants, applyReservation(states, plan));
      await this.book.adjustReserved(manager, locked, 1);
    }
    await manager.insert(CallReservation, {
      id: uuidv7(),
      organizationId,
      callId,
      allocations,
      covered,
      status: 'reserved',
      createdAt: locked.now,
    });
    return { reserved: true };
  }

  async settleCall(s: CallSettlement): Promise<void> {
    await this.dataSource.transaction((manager) => this.settleIn(manager, s));
  }

  /** Settlement inside a given transaction (the renewal and tests reuse it). Idempotent per call. */
  async settleIn(manager: EntityManager, s: CallSettlement): Promise<void> {
    const locked = await this.book.lock(manager, s.organizationId);
    const done = await manager.existsBy(MinuteLedgerEntry, {
      callId: s.callId,
      type: `${s.direction}_call`,
    });
    if (done) return;
    const reservation = await manager.findOneBy(CallReservation, {
      callId: s.callId,
      organizationId: s.organizationId,
    });
    if (reservation?.status === 'settled') return;
    const e = await this.entitlements.load(manager, s.organizationId, locked.now);
    const coverage = coversCall(e, s.direction);
    const grants = await this.book.openGrants(manager, s.organizationId);
    const states = grants.map((g) => this.book.toState(g));
    const held =
      reservation && reservation.allocations.length
        ? {
            allocations: reservation.allocations,
            reservedAt: reservation.createdAt.getTime(),
          }
        : reservation
          ? { allocations: [], reservedAt: reservation.createdAt.getTime() }
          : null;
    const started = startedMinutes(s.durationSeconds);
    const plan = planSettlement({
      grants: states,
      reservation: held,
      startedMins: started,
      covered: coverage !== null,
      now: locked.now.getTime(),
    });
    await this.book.saveStates(manager, grants, applySettlement(states, held, plan));
    const heldMins = held?.allocations.reduce((sum, a) => sum + a.mins, 0) ?? 0;
    if (heldMins) await this.book.adjustReserved(manager, locked, -heldMins);
    await this.recordUse(manager, plan, excessAnchor(states, held, locked.now.getTime()));
    const talk = talkMinutes(s.durationSeconds);
    await this.book.append(manager, locked, {
      type: `${s.direction}_call`,
      amountMins: -plan.chargedMins,
      durationMins: talk,
      includedInPlan: coverage !== null,
      description: describeCall(s.direction, started, plan.excessMins, coverage),
      productType: coverage === 'receptionist' ? 'receptionist' : 'outreach',
      providerCallId: s.providerCallId,
      callId: s.callId,
      excessMins: plan.excessMins,
    });
    if (plan.expiredMins > 0) {
      await this.book.append(manager, locked, {
        type: 'monthly_renewal',
        amountMins: -plan.expiredMins,
        description: `${plan.expiredMins} reserved minute(s) of an ended period expired after the call settled`,
        productType: 'outreach',
      });
    }
    if (reservation) await manager.update(CallReservation, { id: reservation.id }, { status: 'settled' });
  }

  /**
   * Usage per allocation: charged minutes where they were drawn, excess on the call's original allocation, so
   * an item's usage may exceed its allowance (an active call finished past it).
   */
  private async recordUse(manager: EntityManager, plan: SettlementPlan, anchor: string | undefined): Promise<void> {
    const uses = new Map(plan.charges.map((c) => [c.grantId, c.mins]));
    if (plan.excessMins > 0 && anchor) uses.set(anchor, (uses.get(anchor) ?? 0) + plan.excessMins);
    for (const [grantId, mins] of uses) await manager.increment(MinuteGrant, { id: grantId }, 'usedMins', mins);
  }
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
