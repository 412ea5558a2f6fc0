import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThanOrEqual } from 'typeorm';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { TIER_MINUTES, addMonths, planClose } from './allocation';
import { MinuteGrant } from './entities/minute-grant.entity';
import { LedgerType } from './entities/minute-ledger-entry.entity';
import { Subscription } from './entities/subscription.entity';
import { Trial } from './entities/trial.entity';
import { LockedBalance, UsageBalancesRepository } from './usage-balances.repository';
import { grantState, MinuteGrantsRepository } from './minute-grants.repository';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { GrantMinutesCommand } from './grant-minutes.command';

export function includedMinutes(s: Pick<Subscription, 'productType' | 'tier' | 'quantity' | 'complimentary'>): number {
  if (s.productType !== 'outreach' || s.complimentary || !s.tier) return 0;
  return TIER_MINUTES[s.tier as 1 | 2 | 3] * s.quantity;
}

export function planName(s: Pick<Subscription, 'productType' | 'tier' | 'quantity' | 'complimentary'>): string {
  const product = s.productType === 'outreach' ? 'Outreach' : 'Receptionist';
  const tier = s.tier ? ` Tier ${s.tier}` : '';
  const quantity = s.quantity > 1 ? ` x${s.quantity}` : '';
  return `${product}${tier}${quantity}${s.complimentary ? ' (complimentary)' : ''}`;
}

export function planId(s: Pick<Subscription, 'productType' | 'tier' | 'complimentary'>): string {
  return [s.productType, s.tier ? `tier${s.tier}` : null, s.complimentary ? 'complimentary' : null]
    .filter(Boolean)
    .join('_');
}

/**
 * Period boundaries: renewing subscriptions (included minutes expire, the next period's are granted), ending
 * cancelled ones, expiring trials. The scheduled tick runs once cluster-wide; each organization's changes run
 * under its balance lock, and every step re-checks that it is still due, so a repeated tick changes nothing.
 */
@Injectable()
export class SubscriptionLifecycleService {
  private readonly logger = new Logger(SubscriptionLifecycleService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly balances: UsageBalancesRepository,
    private readonly grants: MinuteGrantsRepository,
    private readonly ledger: MinuteLedgerRepository,
    private readonly grantMinutes: GrantMinutesCommand,
  ) {}

  @OnJob({ name: JobName.RenewSubscriptions, schedule: { every: 60_000 } })
  async runDue(): Promise<{ renewed: number; trialsExpired: number }> {
    const now = new Date();
    const due = await this.dataSource.getRepository(Subscription).find({
      where: { status: 'active', currentPeriodEnd: LessThanOrEqual(now) },
      select: { id: true },
      take: 500,
    });
    let renewed = 0;
    for (const { id } of due) {
      if (await this.dataSource.transaction((m) => this.renew(m, id, { onlyIfDue: true }))) renewed++;
    }
    const trials = await this.dataSource.getRepository(Trial).find({
      where: { status: 'active', endsAt: LessThanOrEqual(now) },
      select: { id: true },
      take: 500,
    });
    let trialsExpired = 0;
    for (const { id } of trials) {
      if (await this.dataSource.transaction((m) => this.expireTrial(m, id))) trialsExpired++;
    }
    if (renewed || trialsExpired) this.logger.log({ renewed, trialsExpired }, 'period boundaries processed');
    return { renewed, trialsExpired };
  }

  /**
   * Ends the current period: unspent included minutes expire (`monthly_renewal`), then either the subscription
   * ends (cancel at period end) or the next period starts with fresh included minutes. `onlyIfDue` false starts
   * the next period now (the admin renew action).
   */
  async renew(manager: EntityManager, subscriptionId: string, options: { onlyIfDue: boolean }): Promise<boolean> {
    const peek = await manager.findOneBy(Subscription, { id: subscriptionId });
    if (!peek) return false;
    const locked = await this.balances.lock(manager, peek.organizationId);
    const sub = await manager.findOneByOrFail(Subscription, {
      id: subscriptionId,
    });
    const now = locked.now;
    if (sub.status !== 'active') return false;
    if (options.onlyIfDue && !(sub.currentPeriodEnd && sub.currentPeriodEnd <= now)) return false;
    await this.closeGrants(
      manager,
      locked,
      { subscriptionId: sub.id },
      'monthly_renewal',
      'unspent included minutes expired at period end',
      sub.productType,
    );
    if (sub.cancelAtPeriodEnd) {
      await manager.update(Subscription, { id: sub.id }, { status: 'canceled', canceledAt: now });
      return true;
    }
    let start = options.onlyIfDue && sub.currentPeriodEnd ? sub.currentPeriodEnd : now;
    let end = addMonths(start, 1);
    if (end <= now) {
      // Missed boundaries (the service was down): start afresh rather than granting periods already over.
      start = now;
      end = addMonths(now, 1);
    }
    await manager.update(Subscription, { id: sub.id }, { currentPeriodStart: start, currentPeriodEnd: end });
    await this.grantIncluded(manager, locked, {
      ...sub,
      currentPeriodStart: start,
      currentPeriodEnd: end,
    });
    return true;
  }

  async grantIncluded(manager: EntityManager, locked: LockedBalance, sub: Subscription): Promise<void> {
    const mins = includedMinutes(sub);
    if (!mins) return;
    await this.grantMinutes.execute(
      manager,
      locked,
      {
        kind: 'included',
        grantedMins: mins,
        subscriptionId: sub.id,
        periodStart: sub.currentPeriodStart,
        expiresAt: sub.currentPeriodEnd,
      },
      {
        type: 'monthly_renewal',
        amountMins: mins,
        description: `${planName(sub)}: ${mins} included minutes for the period`,
        productType: sub.productType,
      },
    );
  }

  /** Closes matching open grants, expiring what no call holds, as one ledger row of the given type. */
  async closeGrants(
    manager: EntityManager,
    locked: LockedBalance,
    where: { subscriptionId?: string; kind?: 'trial' },
    type: LedgerType,
    what: string,
    productType: string,
    alwaysRecord = false,
  ): Promise<number> {
    const grants = await manager.find(MinuteGrant, {
      where: {
        organizationId: locked.balance.organizationId,
        closed: false,
        ...where,
      },
    });
    let expired = 0;
    for (const grant of grants) {
      const { expiredMins, after } = planClose(grantState(grant));
      expired += expiredMins;
      await this.grants.saveStates(manager, [grant], [after]);
    }
    if (expired > 0 || alwaysRecord) {
      await this.ledger.append(manager, locked, {
        type,
        amountMins: -expired,
        description: `${expired} ${what}`,
        productType,
      });
    }
    return expired;
  }

  /** Ends a trial whose window has passed: its unspent minutes expire (`trial_expiration`). */
  async expireTrial(manager: EntityManager, trialId: string): Promise<boolean> {
    const peek = await manager.findOneBy(Trial, { id: trialId });
    if (!peek) return false;
    const locked = await this.balances.lock(manager, peek.organizationId);
    const trial = await manager.findOneByOrFail(Trial, { id: trialId });
    if (trial.status !== 'active' || trial.endsAt > locked.now) return false;
    await manager.update(Trial, { id: trial.id }, { status: 'expired' });
    await this.closeGrants(
      manager,
      locked,
      { kind: 'trial' },
      'trial_expiration',
      'unspent trial minutes expired',
      'outreach',
      true,
    );
    return true;
  }

  /** Subscribing during a trial converts it: the trial stops, its unspent minutes close (`trial_conversion`). */
  async convertTrial(manager: EntityManager, locked: LockedBalance): Promise<void> {
    const trial = await manager.findOneBy(Trial, {
      organizationId: locked.balance.organizationId,
      status: In(['active']),
    });
    if (!trial) return;
    await manager.update(Trial, { id: trial.id }, { status: 'converted' });
    await this.closeGrants(
      manager,
      locked,
      { kind: 'trial' },
      'trial_conversion',
      'unspent trial minutes closed on subscribing',
      'outreach',
      true,
    );
  }
}
