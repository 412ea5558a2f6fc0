import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { inTransaction, Tx } from '../../infra/database/tx';
import { addMonths, applyDeduction, planReservation } from './allocation';
import { CloseGrantsCommand } from './close-grants.command';
import { CancelSubscriptionDto } from './dto/cancel-subscription.dto';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { MinuteGrantDto } from './dto/minute-grant.dto';
import { StartTrialDto } from './dto/start-trial.dto';
import { MinuteLedgerEntry } from './entities/minute-ledger-entry.entity';
import { Subscription } from './entities/subscription.entity';
import { Trial } from './entities/trial.entity';
import { EndTrialCommand } from './end-trial.command';
import { HoldingsRepository } from './holdings.repository';
import { RenewSubscriptionCommand } from './renew-subscription.command';
import { includedGrant } from './subscription-plans';
import { SubscriptionsRepository } from './subscriptions.repository';
import { TrialsRepository } from './trials.repository';
import { LockedBalance, UsageBalancesRepository } from './usage-balances.repository';
import { grantState, MinuteGrantsRepository } from './minute-grants.repository';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { GrantMinutesCommand } from './grant-minutes.command';

/** The dashboard's billing actions (docs/contracts/admin-api.md); the public API never changes plans or minutes. */
@Injectable()
export class UsageAdminService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly balances: UsageBalancesRepository,
    private readonly grants: MinuteGrantsRepository,
    private readonly ledger: MinuteLedgerRepository,
    private readonly grantCommand: GrantMinutesCommand,
    private readonly holdings: HoldingsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly trials: TrialsRepository,
    private readonly closeGrants: CloseGrantsCommand,
    private readonly renew: RenewSubscriptionCommand,
    private readonly endTrial: EndTrialCommand,
  ) {}

  async createSubscription(organizationId: string, dto: CreateSubscriptionDto): Promise<Subscription> {
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await this.balances.lock(manager, organizationId);
      const start = dto.periodStart ?? locked.now;
      const end = dto.periodEnd ?? addMonths(start, 1);
      if (end <= start) throw ApiError.validation('periodEnd', 'must be after periodStart');
      const sub = manager.create(Subscription, {
        id: uuidv7(),
        organizationId,
        productType: dto.productType,
        tier: dto.productType === 'outreach' ? (dto.tier ?? null) : null,
        quantity: dto.quantity ?? 1,
        complimentary: dto.complimentary ?? false,
        status: 'active',
        enforced: dto.enforced ?? false,
        enforcementStartsAt: dto.enforcementStartsAt ?? null,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        cancelAtPeriodEnd: false,
        canceledAt: null,
      });
      await this.subscriptions.insert(manager, sub);
      if (sub.productType === 'outreach' || sub.complimentary) await this.convertTrial(manager, locked);
      const included = includedGrant(sub);
      if (included) await this.grantCommand.execute(manager, locked, included.grant, included.entry);
      return sub;
    });
  }

  async cancelSubscription(id: string, dto: CancelSubscriptionDto): Promise<Subscription> {
    return inTransaction(this.dataSource, async (manager) => {
      const sub = await this.mustFindSubscription(manager, id);
      if (sub.status !== 'active') throw new ApiError('INVALID_STATE', 'The subscription has already ended');
      if (dto.atPeriodEnd) {
        await this.subscriptions.cancelAtPeriodEnd(manager, id);
      } else {
        const locked = await this.balances.lock(manager, sub.organizationId);
        await this.subscriptions.cancel(manager, id, locked.now);
        await this.closeGrants.execute(manager, locked, {
          where: { subscriptionId: id },
          type: 'admin_adjustment',
          what: 'unspent included minutes expired: subscription cancelled',
          productType: sub.productType,
        });
      }
      return this.mustFindSubscription(manager, id);
    });
  }

  async renewSubscription(id: string): Promise<Subscription> {
    return inTransaction(this.dataSource, async (manager) => {
      const sub = await this.mustFindSubscription(manager, id);
      if (!(await this.renew.execute(manager, id, { onlyIfDue: false }))) {
        throw new ApiError('INVALID_STATE', `The subscription is ${sub.status}`);
      }
      return this.mustFindSubscription(manager, id);
    });
  }

  /** Starts an organization's one free trial with its minutes (`trial_activation`); also used by the demo seed. */
  async startTrial(organizationId: string, dto: StartTrialDto): Promise<Trial> {
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await this.balances.lock(manager, organizationId);
      if (await this.trials.existsFor(manager, organizationId))
        throw ApiError.conflict('This organization already had a trial');
      const startedAt = dto.startedAt ?? locked.now;
      const trial = manager.create(Trial, {
        id: uuidv7(),
        organizationId,
        startedAt,
        endsAt: new Date(startedAt.getTime() + dto.days * 86_400_000),
        grantedMins: dto.mins,
        status: 'active',
      });
      if (trial.endsAt <= locked.now) throw ApiError.validation('days', 'the trial would already have ended');
      await this.trials.insert(manager, trial);
      await this.grantCommand.execute(
        manager,
        locked,
        {
          kind: 'trial',
          grantedMins: dto.mins,
          subscriptionId: null,
          periodStart: startedAt,
          expiresAt: trial.endsAt,
        },
        {
          type: 'trial_activation',
          amountMins: dto.mins,
          description: `Free trial: ${dto.mins} minutes for ${dto.days} days`,
          productType: 'outreach',
        },
      );
      return trial;
    });
  }

  /** Top-ups carry forward; a negative admin adjustment removes free minutes in consumption order. */
  async grantMinutes(organizationId: string, dto: MinuteGrantDto): Promise<MinuteLedgerEntry> {
    if (dto.mins < 0 && dto.type !== 'admin_adjustment') {
      throw ApiError.validation('mins', 'only admin_adjustment may be negative');
    }
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await this.balances.lock(manager, organizationId);
      const description = dto.description ?? defaultDescription(dto);
      if (dto.mins > 0) {
        await this.grantCommand.execute(
          manager,
          locked,
          {
            kind: 'topup',
            grantedMins: dto.mins,
            subscriptionId: null,
            periodStart: null,
            expiresAt: null,
          },
          {
            type: dto.type,
            amountMins: dto.mins,
            description,
            productType: 'outreach',
          },
        );
      } else {
        await this.deduct(manager, organizationId, -dto.mins, locked.now.getTime());
        await this.ledger.append(manager, locked, {
          type: dto.type,
          amountMins: dto.mins,
          description,
          productType: 'outreach',
        });
      }
      return this.ledger.latest(manager, organizationId);
    });
  }

  /** Free minutes only: a reserved minute belongs to a call in flight, and the balance never goes negative. */
  private async deduct(manager: Tx, organizationId: string, mins: number, now: number): Promise<void> {
    const { grants } = await this.holdings.load(manager, organizationId, new Date(now));
    const states = grants.map(grantState);
    const plan = planReservation(states, now, mins);
    if (!plan) throw ApiError.validation('mins', 'exceeds the minutes available to remove');
    await this.grants.saveStates(manager, grants, applyDeduction(states, plan));
  }

  /** Subscribing during a trial converts it: the trial stops, its unspent minutes close (`trial_conversion`). */
  private async convertTrial(tx: Tx, locked: LockedBalance): Promise<void> {
    const trial = await this.trials.findActive(tx, locked.balance.organizationId);
    if (!trial) return;
    await this.endTrial.execute(tx, locked, trial.id, 'converted');
  }

  private async mustFindSubscription(tx: Tx, id: string): Promise<Subscription> {
    const sub = await this.subscriptions.findById(tx, id);
    if (!sub) throw ApiError.notFound('Subscription');
    return sub;
  }
}

function defaultDescription(dto: MinuteGrantDto): string {
  const what = {
    addon_purchase: 'Minutes purchased',
    coupon_redemption: 'Coupon redeemed',
    admin_adjustment: 'Adjustment',
  };
  return `${what[dto.type]}: ${dto.mins > 0 ? '+' : ''}${dto.mins} minutes`;
}
