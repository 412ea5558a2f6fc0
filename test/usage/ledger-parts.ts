import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { addMonths } from '../../src/modules/usage/allocation';
import { CallReservation } from '../../src/modules/usage/entities/call-reservation.entity';
import { MinuteGrant } from '../../src/modules/usage/entities/minute-grant.entity';
import { MinuteLedgerEntry } from '../../src/modules/usage/entities/minute-ledger-entry.entity';
import { Subscription } from '../../src/modules/usage/entities/subscription.entity';
import { Trial } from '../../src/modules/usage/entities/trial.entity';
import { UsageBalance } from '../../src/modules/usage/entities/usage-balance.entity';
import { UsageDailyTotal } from '../../src/modules/usage/entities/usage-daily-total.entity';
import { CallReservationsRepository } from '../../src/modules/usage/call-reservations.repository';
import { GrantMinutesCommand } from '../../src/modules/usage/grant-minutes.command';
import { MinuteGrantsRepository } from '../../src/modules/usage/minute-grants.repository';
import { MinuteLedgerRepository } from '../../src/modules/usage/minute-ledger.repository';
import { includedGrant } from '../../src/modules/usage/subscription-plans';
import { SubscriptionsRepository } from '../../src/modules/usage/subscriptions.repository';
import { UsageBalancesRepository } from '../../src/modules/usage/usage-balances.repository';
import { inTransaction } from '../../src/infra/database/tx';

/** The ledger's tables, for a medium spec's data source. */
export const LEDGER_ENTITIES = [
  UsageBalance,
  MinuteGrant,
  MinuteLedgerEntry,
  CallReservation,
  UsageDailyTotal,
  Subscription,
  Trial,
];

/** The ledger's repositories that every ledger write goes through, built as the usage module builds them. */
export function ledgerRepositories() {
  const grants = new MinuteGrantsRepository();
  const ledger = new MinuteLedgerRepository();
  return {
    balances: new UsageBalancesRepository(),
    grants,
    ledger,
    reservations: new CallReservationsRepository(),
    grantMinutes: new GrantMinutesCommand(grants, ledger),
  };
}

/**
 * A new organization with an active Outreach Tier 1 subscription (100 included minutes) for the current period,
 * written as the usage module writes one; its id.
 */
export async function subscribedOrganization(dataSource: DataSource): Promise<string> {
  const organizationId = randomUUID();
  const { balances, grantMinutes } = ledgerRepositories();
  await inTransaction(dataSource, async (tx) => {
    const locked = await balances.lock(tx, organizationId);
    const sub = tx.create(Subscription, {
      id: randomUUID(),
      organizationId,
      productType: 'outreach',
      tier: 1,
      quantity: 1,
      complimentary: false,
      status: 'active',
      enforced: false,
      enforcementStartsAt: null,
      currentPeriodStart: new Date(Date.now() - 86_400_000),
      currentPeriodEnd: addMonths(new Date(), 1),
      cancelAtPeriodEnd: false,
      canceledAt: null,
    });
    await new SubscriptionsRepository().insert(tx, sub);
    const included = includedGrant(sub);
    if (included) await grantMinutes.execute(tx, locked, included.grant, included.entry);
  });
  return organizationId;
}
