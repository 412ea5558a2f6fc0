import { UsageDailyService } from './usage-daily.service';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminUsageController } from './admin-usage.controller';
import { CallBilling } from './call-billing.port';
import { CallBillingService } from './call-billing.service';
import { CallReservation } from './entities/call-reservation.entity';
import { MinuteGrant } from './entities/minute-grant.entity';
import { MinuteLedgerEntry } from './entities/minute-ledger-entry.entity';
import { Subscription } from './entities/subscription.entity';
import { Trial } from './entities/trial.entity';
import { UsageBalance } from './entities/usage-balance.entity';
import { UsageDailyTotal } from './entities/usage-daily-total.entity';
import { HoldingsRepository } from './holdings.repository';
import { CallReservationsRepository } from './call-reservations.repository';
import { GrantMinutesCommand } from './grant-minutes.command';
import { MinuteGrantsRepository } from './minute-grants.repository';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { UsageBalancesRepository } from './usage-balances.repository';
import { PeriodUsageService } from './period-usage.service';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { UsageAdminService } from './usage-admin.service';
import { UsageController } from './usage.controller';
import { UsageHistoryService } from './usage-history.service';
import { UsageSummaryService } from './usage-summary.service';

/** The minute ledger: plans, trials, grants, reservations, settlements, usage summary and history. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      UsageBalance,
      Subscription,
      Trial,
      MinuteGrant,
      CallReservation,
      MinuteLedgerEntry,
      UsageDailyTotal,
    ]),
    OrganizationsModule,
  ],
  controllers: [UsageController, AdminUsageController],
  providers: [
    UsageDailyService,
    UsageBalancesRepository,
    MinuteGrantsRepository,
    MinuteLedgerRepository,
    CallReservationsRepository,
    GrantMinutesCommand,
    HoldingsRepository,
    CallBillingService,
    { provide: CallBilling, useExisting: CallBillingService },
    SubscriptionLifecycleService,
    UsageAdminService,
    UsageSummaryService,
    UsageHistoryService,
    PeriodUsageService,
  ],
  exports: [CallBilling, UsageAdminService, UsageDailyService, UsageSummaryService, UsageHistoryService],
})
export class UsageModule {}
