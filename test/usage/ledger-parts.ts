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
import { UsageBalancesRepository } from '../../src/modules/usage/usage-balances.repository';

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
