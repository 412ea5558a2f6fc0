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

/** The subscription period that contains now: from yesterday to a month from today. */
export const currentPeriod = () => ({ start: new Date(Date.now() - 86_400_000), end: addMonths(new Date(), 1) });

/**
 * A new organization with an active Outreach Tier 1 subscription (100 included minutes) for `period`, written as
 * the usage module writes one (`values` override the subscription's fields); the subscription.
 */
export function subscribe(
  dataSource: DataSource,
  period: { start: Date; end: Date } = currentPeriod(),
  values: Partial<Subscription> = {},
): Promise<Subscription> {
  const organizationId = randomUUID();
  const { balances, grantMinutes } = ledgerRepositories();
  return inTransaction(dataSource, async (tx) => {
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
      currentPeriodStart: period.start,
      currentPeriodEnd: period.end,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      ...values,
    });
    await new SubscriptionsRepository().insert(tx, sub);
    const included = includedGrant(sub);
    if (included) await grantMinutes.execute(tx, locked, included.grant, included.entry);
    return sub;
  });
}

/** A new organization subscribed for the current period (`subscribe`); its id. */
export async function subscribedOrganization(dataSource: DataSource): Promise<string> {
  return (await subscribe(dataSource)).organizationId;
}
