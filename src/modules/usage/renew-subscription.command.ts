import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { addMonths } from './allocation';
import { CloseGrantsCommand } from './close-grants.command';
import { GrantMinutesCommand } from './grant-minutes.command';
import { includedGrant } from './subscription-plans';
import { SubscriptionsRepository } from './subscriptions.repository';
import { UsageBalancesRepository } from './usage-balances.repository';

/**
 * Ends a subscription's current period: unspent included minutes expire (`monthly_renewal`), then either the
 * subscription ends (cancel at period end) or the next period starts with fresh included minutes. Runs under the
 * organization's balance lock and re-reads the subscription there, so of two renewals of the same period (a
 * repeated tick, an admin renew racing the tick) the second finds it no longer due and changes nothing.
 * `onlyIfDue` false starts the next period now (the admin renew action). False when nothing was renewed.
 */
@Injectable()
export class RenewSubscriptionCommand {
  constructor(
    private readonly balances: UsageBalancesRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly closeGrants: CloseGrantsCommand,
    private readonly grantMinutes: GrantMinutesCommand,
  ) {}

  async execute(tx: Tx, subscriptionId: string, options: { onlyIfDue: boolean }): Promise<boolean> {
    const peek = await this.subscriptions.findById(tx, subscriptionId);
    if (!peek) return false;
    const locked = await this.balances.lock(tx, peek.organizationId);
    const sub = await this.subscriptions.findById(tx, subscriptionId);
    const now = locked.now;
    if (sub?.status !== 'active') return false;
    if (options.onlyIfDue && !(sub.currentPeriodEnd && sub.currentPeriodEnd <= now)) return false;
    await this.closeGrants.execute(tx, locked, {
      where: { subscriptionId: sub.id },
      type: 'monthly_renewal',
      what: 'unspent included minutes expired at period end',
      productType: sub.productType,
    });
    if (sub.cancelAtPeriodEnd) return this.subscriptions.cancel(tx, sub.id, now);
    let start = options.onlyIfDue && sub.currentPeriodEnd ? sub.currentPeriodEnd : now;
    let end = addMonths(start, 1);
    if (end <= now) {
      // Missed boundaries (the service was down): start afresh rather than granting periods already over.
      start = now;
      end = addMonths(now, 1);
    }
    await this.subscriptions.startPeriod(tx, sub.id, start, end);
    const included = includedGrant({ ...sub, currentPeriodStart: start, currentPeriodEnd: end });
    if (included) await this.grantMinutes.execute(tx, locked, included.grant, included.entry);
    return true;
  }
}
