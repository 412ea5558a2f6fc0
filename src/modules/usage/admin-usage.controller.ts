import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CancelSubscriptionDto } from './dto/cancel-subscription.dto';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { MinuteGrantDto } from './dto/minute-grant.dto';
import { StartTrialDto } from './dto/start-trial.dto';
import { Subscription } from './entities/subscription.entity';
import { planId, planName } from './subscription-plans';
import { UsageHistoryRowResponse } from './usage-history-row.response';
import { UsageAdminService } from './usage-admin.service';

function subscriptionView(s: Subscription) {
  return {
    id: s.id,
    organizationId: s.organizationId,
    planId: planId(s),
    planName: planName(s),
    productType: s.productType,
    tier: s.tier,
    quantity: s.quantity,
    complimentary: s.complimentary,
    status: s.status,
    enforced: s.enforced,
    enforcementStartsAt: s.enforcementStartsAt?.toISOString() ?? null,
    currentPeriodStart: s.currentPeriodStart.toISOString(),
    currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt?.toISOString() ?? null,
  };
}

/** Admin API billing rows (CONTRACTS §6): what the dashboard and the payment processor change. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1')
export class AdminUsageController {
  constructor(private readonly usage: UsageAdminService) {}

  @Post('organizations/:orgId/subscriptions')
  @HttpCode(201)
  async createSubscription(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateSubscriptionDto,
  ) {
    return {
      data: subscriptionView(await this.usage.createSubscription(orgId, dto)),
    };
  }

  @Post('subscriptions/:id/cancel')
  @HttpCode(200)
  async cancel(@Param('id', IdParamPipe) id: string, @Body() dto: CancelSubscriptionDto) {
    return {
      data: subscriptionView(await this.usage.cancelSubscription(id, dto)),
    };
  }

  @Post('subscriptions/:id/renew')
  @HttpCode(200)
  async renew(@Param('id', IdParamPipe) id: string) {
    return { data: subscriptionView(await this.usage.renewSubscription(id)) };
  }

  @Post('organizations/:orgId/trial')
  @HttpCode(201)
  async startTrial(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: StartTrialDto) {
    const trial = await this.usage.startTrial(orgId, dto);
    return {
      data: {
        id: trial.id,
        organizationId: orgId,
        startedAt: trial.startedAt.toISOString(),
        endsAt: trial.endsAt.toISOString(),
        grantedMins: trial.grantedMins,
        status: trial.status,
      },
    };
  }

  @Post('organizations/:orgId/minute-grants')
  @HttpCode(201)
  async grant(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: MinuteGrantDto) {
    return {
      data: UsageHistoryRowResponse.from(await this.usage.grantMinutes(orgId, dto)),
    };
  }
}
