import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, Tx } from '../../infra/database/tx';
import { availableMins, balanceMins } from './allocation';
import { CallBilling, CallSettlement, DispatchReservation, OutboundBlockedReason } from './call-billing.port';
import { blockedReason } from './entitlements';
import { HoldingsRepository } from './holdings.repository';
import { grantState } from './minute-grants.repository';
import { ReserveMinutesCommand } from './reserve-minutes.command';
import { SettleCallCommand } from './settle-call.command';

/**
 * The calls module's only door into the ledger (CallBilling port): the entitlement check, and the reservation
 * and settlement commands that hold the ledger's rules.
 */
@Injectable()
export class CallBillingService extends CallBilling {
  constructor(
    private readonly dataSource: DataSource,
    private readonly holdings: HoldingsRepository,
    private readonly reserve: ReserveMinutesCommand,
    private readonly settle: SettleCallCommand,
  ) {
    super();
  }

  outboundBlockedReason(organizationId: string): Promise<OutboundBlockedReason | null> {
    return inTransaction(this.dataSource, (tx) => this.outboundBlockedReasonIn(tx, organizationId));
  }

  async outboundBlockedReasonIn(manager: EntityManager, organizationId: string): Promise<OutboundBlockedReason | null> {
    const now = new Date();
    const { entitlements, grants } = await this.holdings.load(manager, organizationId, now);
    const states = grants.map(grantState);
    return blockedReason(entitlements, {
      balanceMins: balanceMins(states),
      availableMins: availableMins(states, now.getTime()),
    });
  }

  reserveForDispatch(
    tx: Tx,
    organizationId: string,
    callIds: readonly string[],
  ): Promise<Map<string, DispatchReservation>> {
    return this.reserve.execute(tx, organizationId, callIds);
  }

  settleCall(settlement: CallSettlement): Promise<void> {
    return this.settle.execute(settlement);
  }

  settleCallsIn(tx: Tx, settlements: readonly CallSettlement[]): Promise<void> {
    return this.settle.executeIn(tx, settlements);
  }
}
