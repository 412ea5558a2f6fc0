import { UsageDailyService } from './usage-daily.service';
import { UsageDailyTotalsRepository } from './usage-daily-totals.repository';
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
import { SubscriptionLifecycleJob } from './subscription-lifecycle.job';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionsRepository } from './subscriptions.repository';
import { TrialsRepository } from './trials.repository';
import { CloseGrantsCommand } from './close-grants.command';
import { EndTrialCommand } from './end-trial.command';
import { ExpireTrialCommand } from './expire-trial.command';
import { RenewSubscriptionCommand } from './renew-subscription.command';
import { ReserveMinutesCommand } from './reserve-minutes.command';
import { SettleCallCommand } from './settle-call.command';
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
    UsageDailyTotalsRepository,
    UsageBalancesRepository,
    MinuteGrantsRepository,
    MinuteLedgerRepository,
    CallReservationsRepository,
    SubscriptionsRepository,
    TrialsRepository,
    HoldingsRepository,
    GrantMinutesCommand,
    CloseGrantsCommand,
    ReserveMinutesCommand,
    SettleCallCommand,
    RenewSubscriptionCommand,
    EndTrialCommand,
    ExpireTrialCommand,
    CallBillingService,
    { provide: CallBilling, useExisting: CallBillingService },
    SubscriptionLifecycleService,
    SubscriptionLifecycleJob,
    UsageAdminService,
    UsageSummaryService,
    UsageHistoryService,
    PeriodUsageService,
  ],
  exports: [CallBilling, UsageAdminService, UsageDailyService, UsageSummaryService, UsageHistoryService],
})
export class UsageModule {}
