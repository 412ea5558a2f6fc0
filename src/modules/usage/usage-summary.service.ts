import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GrantState, availableMins, daysRemaining, isLive } from './allocation';
import { MinuteGrant } from './entities/minute-grant.entity';
import { Subscription } from './entities/subscription.entity';
import {
  Entitlements,
  activeSubscriptions,
  blockedReason,
  hasOutboundPlan,
  isComplimentary,
  isEnforced,
  outreachItems,
  trialIsActive,
} from './entitlements';
import { HoldingsRepository } from './holdings.repository';
import { PeriodUsageService } from './period-usage.service';
import { includedMinutes, planId, planName } from './subscription-plans';
import { grantState } from './minute-grants.repository';
import {
  OutreachUsageResponse,
  UsagePeriodResponse,
  UsagePlanResponse,
  UsageSummaryResponse,
  UsageTrialResponse,
} from './usage-summary.response';

const ROLLING_WINDOW_MS = 30 * 86_400_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** GET /usage: plan, balance, period, period usage, trial, subscriptions and the outreach breakdown. */
@Injectable()
export class UsageSummaryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly holdings: HoldingsRepository,
    private readonly periodUsage: PeriodUsageService,
  ) {}

  async summarize(organizationId: string): Promise<UsageSummaryResponse> {
    const manager = this.dataSource.manager;
    const nowDate = new Date();
    const now = nowDate.getTime();
    const { entitlements: e, grants, balance: balanceRow } = await this.holdings.load(manager, organizationId, nowDate);
    const states = grants.map(grantState);
    const balanceMins = balanceRow?.balanceMins ?? 0;
    const available = availableMins(states, now);
    const plan = this.plan(e);
    const period = this.period(e);
    const usage = await this.periodUsage.totals(organizationId, new Date(period.start));
    const lowThreshold = Math.max(10, Math.ceil((plan?.includedMins ?? 0) * 0.1));
    return {
      plan,
      balanceMins,
      isLowBalance: !!plan && !plan.isComplimentary && available < lowThreshold,
      period,
      currentPeriodUsage: usage,
      trial: this.trial(e),
      subscriptions: e.subscriptions.map((s) => ({
        id: s.id,
        planId: planId(s),
        planName: planName(s),
        productType: s.productType,
        status: s.status,
        currentPeriodStart: s.currentPeriodStart.toISOString(),
        currentPeriodEnd: iso(s.currentPeriodEnd),
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        cancelAt: cancelAt(s),
      })),
      outreach: this.outreach(e, grants, states, balanceRow?.reservedMins ?? 0),
      outboundBlockedReason: blockedReason(e, {
        balanceMins,
        availableMins: available,
      }),
    };
  }

  /** The plan shown: a paid outreach item first, then complimentary, receptionist, then a running trial. */
  private plan(e: Entitlements): UsagePlanResponse | null {
    const active = activeSubscriptions(e);
    const primary =
      active.find((s) => s.productType === 'outreach' && !s.complimentary) ??
      active.find((s) => s.complimentary) ??
      active[0];
    const features = {
      allowInbound: active.length > 0 || trialIsActive(e.trial, e.now),
      allowOutbound: hasOutboundPlan(e),
      allowMessaging: active.length > 0,
    };
    if (primary) {
      return {
        id: planId(primary),
        name: planName(primary),
        productType: primary.productType,
        status: primary.status,
        includedMins: active.reduce((sum, s) => sum + includedMinutes(s), 0),
        isTrial: false,
        isComplimentary: isComplimentary(e),
        cancelAtPeriodEnd: primary.cancelAtPeriodEnd,
        cancelAt: cancelAt(primary),
        features,
      };
    }
    if (e.trial && trialIsActive(e.trial, e.now)) {
      return {
        id: 'trial',
        name: 'Free trial',
        productType: 'outreach',
        status: 'trialing',
        includedMins: e.trial.grantedMins,
        isTrial: true,
        isComplimentary: false,
        cancelAtPeriodEnd: true,
        cancelAt: e.trial.endsAt.toISOString(),
        features,
      };
    }
    return null;
  }

  /** docs/contracts/conventions.md, "Usage summary": a live subscription period, else a running trial window, else the last 30 days. */
  private period(e: Entitlements): UsagePeriodResponse {
    const live = activeSubscriptions(e).filter((s) => !s.currentPeriodEnd || s.currentPeriodEnd.getTime() > e.now);
    const sub = live.find((s) => s.productType === 'outreach' && !s.complimentary) ?? live[0];
    if (sub) {
      return {
        start: sub.currentPeriodStart.toISOString(),
        end: iso(sub.currentPeriodEnd),
        daysRemaining: daysRemaining(sub.currentPeriodEnd, e.now),
        source: 'subscription',
      };
    }
    if (e.trial && trialIsActive(e.trial, e.now)) {
      return {
        start: e.trial.startedAt.toISOString(),
        end: e.trial.endsAt.toISOString(),
        daysRemaining: daysRemaining(e.trial.endsAt, e.now),
        source: 'trial',
      };
    }
    return {
      start: new Date(e.now - ROLLING_WINDOW_MS).toISOString(),
      end: null,
      daysRemaining: null,
      source: 'rolling_30d',
    };
  }

  /** docs/contracts/conventions.md, "Usage summary": hasEnded once the end date passed (even after subscribing); expiredWithoutPlan when nothing replaced it. */
  private trial(e: Entitlements): UsageTrialResponse {
    const t = e.trial;
    if (!t) {
      return {
        isActive: false,
        hasEnded: false,
        expiredWithoutPlan: false,
        startedAt: null,
        endsAt: null,
        daysRemaining: null,
        grantedMins: 0,
      };
    }
    const hasEnded = t.endsAt.getTime() <= e.now;
    return {
      isActive: trialIsActive(t, e.now),
      hasEnded,
      expiredWithoutPlan: hasEnded && activeSubscriptions(e).length === 0,
      startedAt: t.startedAt.toISOString(),
      endsAt: t.endsAt.toISOString(),
      daysRemaining: daysRemaining(t.endsAt, e.now),
      grantedMins: t.grantedMins,
    };
  }

  /** Null on trial and complimentary rules and for accounts with no paid outreach item. */
  private outreach(
    e: Entitlements,
    grants: MinuteGrant[],
    states: GrantState[],
    reservedMins: number,
  ): OutreachUsageResponse | null {
    const items = outreachItems(e);
    if (!items.length || isComplimentary(e) || trialIsActive(e.trial, e.now)) return null;
    const live = states.filter((s) => isLive(s, e.now));
    const sum = (list: GrantState[], f: (s: GrantState) => number) => list.reduce((n, s) => n + f(s), 0);
    const periods = items.map((s) => {
      const current = grants.filter(
        (g) => g.subscriptionId === s.id && !g.closed && g.periodStart?.getTime() === s.currentPeriodStart.getTime(),
      );
      return {
        itemKey: `${s.id}:${s.productType}:tier${s.tier}`,
        subscriptionId: s.id,
        planId: planId(s),
        allowanceMins: includedMinutes(s),
        usedMins: current.reduce((n, g) => n + g.usedMins, 0),
        reservedMins: current.reduce((n, g) => n + g.reservedMins, 0),
        currency: 'usd',
        periodStart: s.currentPeriodStart.getTime(),
        periodEnd: s.currentPeriodEnd ? s.currentPeriodEnd.getTime() : null,
      };
    });
    const starts = items.map((s) => s.enforcementStartsAt?.getTime()).filter((t): t is number => t !== undefined);
    return {
      allowanceMins: periods.reduce((n, p) => n + p.allowanceMins, 0),
      usedMins: periods.reduce((n, p) => n + p.usedMins, 0),
      includedRemainingMins: sum(
        live.filter((s) => s.kind !== 'topup'),
        (s) => s.remainingMins,
      ),
      topUpRemainingMins: sum(
        live.filter((s) => s.kind === 'topup'),
        (s) => s.remainingMins,
      ),
      reservedMins,
      availableMins: availableMins(states, e.now),
      enforced: isEnforced(e),
      enforcementStartsAt: starts.length ? Math.min(...starts) : null,
      periods,
    };
  }
}

/** When the plan actually ends: its period end once cancelled at period end, the cancellation time once ended. */
function cancelAt(s: Subscription): string | null {
  if (s.status === 'canceled') return iso(s.canceledAt);
  return s.cancelAtPeriodEnd ? iso(s.currentPeriodEnd) : null;
}
