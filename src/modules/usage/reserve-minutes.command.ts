import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { applyReservation, planReservation } from './allocation';
import { DispatchReservation } from './call-billing.port';
import { CallReservationsRepository, NewReservation } from './call-reservations.repository';
import { coversCall, hasOutboundPlan } from './entitlements';
import { HoldingsRepository } from './holdings.repository';
import { grantState } from './minute-grants.repository';
import { UsageBalancesRepository } from './usage-balances.repository';

/**
 * Reserves one billable minute for dispatching each of these calls of one organization, in the dispatcher's
 * transaction (a required `Tx`: the calls module holds it), under the organization's balance lock, so N
 * concurrent dispatches against K available minutes reserve exactly min(N, K). Minutes go to the calls in the
 * order given; a call that already holds a reservation reserves nothing twice. One outcome per call id.
 */
@Injectable()
export class ReserveMinutesCommand {
  constructor(
    private readonly balances: UsageBalancesRepository,
    private readonly reservations: CallReservationsRepository,
    private readonly holdings: HoldingsRepository,
  ) {}

  /**
   * Everything that does not need the organization's lock happens before it: the calls' own claims already
   * serialize their dispatch, so the idempotency check may run unlocked. Under the lock: read the holdings, plan
   * every call in turn, write once; the caller commits right after, so the lock is held for three round trips
   * whatever the number of calls.
   */
  async execute(tx: Tx, organizationId: string, callIds: readonly string[]): Promise<Map<string, DispatchReservation>> {
    const outcomes = new Map<string, DispatchReservation>();
    for (const callId of await this.reservations.reservedCallIds(tx, organizationId, callIds))
      outcomes.set(callId, { reserved: true });
    const pending = callIds.filter((id) => !outcomes.has(id));
    if (!pending.length) return outcomes;
    const locked = await this.balances.lock(tx, organizationId);
    const { entitlements: e, grants } = await this.holdings.load(tx, organizationId, locked.now);
    if (!hasOutboundPlan(e)) {
      for (const callId of pending) outcomes.set(callId, { reserved: false, reason: 'OUTBOUND_PLAN_REQUIRED' });
      return outcomes;
    }
    const covered = coversCall(e, 'outbound') !== null;
    let states = grants.map(grantState);
    const reservations: NewReservation[] = [];
    for (const callId of pending) {
      const allocations = covered ? [] : planReservation(states, locked.now.getTime(), 1);
      if (!allocations) {
        outcomes.set(callId, { reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' });
        continue;
      }
      states = applyReservation(states, allocations);
      reservations.push({ callId, allocations, covered });
      outcomes.set(callId, { reserved: true });
    }
    await this.reservations.reserve(tx, locked, reservations);
    return outcomes;
  }
}
