import { ApiProperty } from '@nestjs/swagger';

export class PlanFeaturesResponse {
  @ApiProperty() allowInbound: boolean;
  @ApiProperty() allowOutbound: boolean;
  @ApiProperty() allowMessaging: boolean;
}

export class UsagePlanResponse {
  @ApiProperty({ example: 'outreach_tier2' }) id: string;
  @ApiProperty({ example: 'Outreach Tier 2' }) name: string;
  @ApiProperty({ enum: ['outreach', 'receptionist'] }) productType: string;
  @ApiProperty({ enum: ['active', 'canceled', 'trialing'] }) status: string;
  @ApiProperty({
    description: 'Minutes granted each renewal, not a live balance',
  })
  includedMins: number;
  @ApiProperty() isTrial: boolean;
  @ApiProperty() isComplimentary: boolean;
  @ApiProperty() cancelAtPeriodEnd: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the plan actually ends',
  })
  cancelAt: string | null;
  @ApiProperty({ type: PlanFeaturesResponse }) features: PlanFeaturesResponse;
}

export class UsagePeriodResponse {
  @ApiProperty({ format: 'date-time' }) start: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) end: string | null;
  @ApiProperty({ type: Number, nullable: true }) daysRemaining: number | null;
  @ApiProperty({ enum: ['subscription', 'trial', 'rolling_30d'] }) source: 'subscription' | 'trial' | 'rolling_30d';
}

export class DirectionUsageResponse {
  @ApiProperty() calls: number;
  @ApiProperty() mins: number;
}

export class CurrentPeriodUsageResponse {
  @ApiProperty({ description: 'Talk time, whether or not deducted' })
  totalMins: number;
  @ApiProperty({ description: 'Part that reduced the balance' })
  deductedMins: number;
  @ApiProperty() totalCalls: number;
  @ApiProperty({ type: DirectionUsageResponse })
  inbound: DirectionUsageResponse;
  @ApiProperty({ type: DirectionUsageResponse })
  outbound: DirectionUsageResponse;
  @ApiProperty({
    description: 'More than 10,000 billing rows in the period: totals are a floor',
  })
  truncated: boolean;
}

export class UsageTrialResponse {
  @ApiProperty() isActive: boolean;
  @ApiProperty() hasEnded: boolean;
  @ApiProperty() expiredWithoutPlan: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endsAt: string | null;
  @ApiProperty({ type: Number, nullable: true }) daysRemaining: number | null;
  @ApiProperty() grantedMins: number;
}

export class UsageSubscriptionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() planId: string;
  @ApiProperty() planName: string;
  @ApiProperty({ enum: ['outreach', 'receptionist'] }) productType: string;
  @ApiProperty({ enum: ['active', 'canceled'] }) status: string;
  @ApiProperty({ format: 'date-time' }) currentPeriodStart: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  currentPeriodEnd: string | null;
  @ApiProperty() cancelAtPeriodEnd: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelAt: string | null;
}

export class OutreachPeriodResponse {
  @ApiProperty({ description: 'The subscription item' }) itemKey: string;
  @ApiProperty() subscriptionId: string;
  @ApiProperty() planId: string;
  @ApiProperty() allowanceMins: number;
  @ApiProperty() usedMins: number;
  @ApiProperty() reservedMins: number;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ description: 'Unix milliseconds' }) periodStart: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Unix milliseconds',
  })
  periodEnd: number | null;
}

export class OutreachUsageResponse {
  @ApiProperty() allowanceMins: number;
  @ApiProperty({
    description: 'May exceed allowanceMins when an active call finished past it',
  })
  usedMins: number;
  @ApiProperty() includedRemainingMins: number;
  @ApiProperty() topUpRemainingMins: number;
  @ApiProperty() reservedMins: number;
  @ApiProperty() availableMins: number;
  @ApiProperty() enforced: boolean;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Unix milliseconds',
  })
  enforcementStartsAt: number | null;
  @ApiProperty({ type: [OutreachPeriodResponse] })
  periods: OutreachPeriodResponse[];
}

export class UsageSummaryResponse {
  @ApiProperty({ type: UsagePlanResponse, nullable: true })
  plan: UsagePlanResponse | null;
  @ApiProperty({
    description: 'Included minutes plus top-ups, before active reservations',
  })
  balanceMins: number;
  @ApiProperty() isLowBalance: boolean;
  @ApiProperty({ type: UsagePeriodResponse }) period: UsagePeriodResponse;
  @ApiProperty({ type: CurrentPeriodUsageResponse })
  currentPeriodUsage: CurrentPeriodUsageResponse;
  @ApiProperty({ type: UsageTrialResponse }) trial: UsageTrialResponse;
  @ApiProperty({ type: [UsageSubscriptionResponse] })
  subscriptions: UsageSubscriptionResponse[];
  @ApiProperty({ type: OutreachUsageResponse, nullable: true })
  outreach: OutreachUsageResponse | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['OUTBOUND_MINUTES_EXHAUSTED', 'OUTBOUND_PLAN_REQUIRED'],
  })
  outboundBlockedReason: 'OUTBOUND_MINUTES_EXHAUSTED' | 'OUTBOUND_PLAN_REQUIRED' | null;
}
