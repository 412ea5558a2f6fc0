import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExpireTrialCommand } from './expire-trial.command';
import { RenewSubscriptionCommand } from './renew-subscription.command';
import { SubscriptionsRepository } from './subscriptions.repository';
import { TrialsRepository } from './trials.repository';
import { inTransaction } from '../../infra/database/tx';

/** How many subscriptions, and how many trials, one pass handles; the next tick takes the rest. */
const BATCH = 500;

/**
 * Period boundaries: renewing subscriptions (included minutes expire, the next period's are granted), ending
 * cancelled ones, expiring trials, each in its own transaction. The commands re-check under the organization's
 * balance lock that each step is still due, so a repeated pass changes nothing.
 */
@Injectable()
export class SubscriptionLifecycleService {
  private readonly logger = new Logger(SubscriptionLifecycleService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly trials: TrialsRepository,
    private readonly renew: RenewSubscriptionCommand,
    private readonly expireTrial: ExpireTrialCommand,
  ) {}

  async runDue(): Promise<{ renewed: number; trialsExpired: number }> {
    const now = new Date();
    let renewed = 0;
    for (const id of await this.subscriptions.findDueIds(this.dataSource.manager, now, BATCH)) {
      if (await inTransaction(this.dataSource, (tx) => this.renew.execute(tx, id, { onlyIfDue: true }))) renewed++;
    }
    let trialsExpired = 0;
    for (const id of await this.trials.findDueIds(this.dataSource.manager, now, BATCH)) {
      if (await inTransaction(this.dataSource, (tx) => this.expireTrial.execute(tx, id))) trialsExpired++;
    }
    if (renewed || trialsExpired) this.logger.log({ renewed, trialsExpired }, 'period boundaries processed');
    return { renewed, trialsExpired };
  }
}
