import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CancelSubscriptionDto } from './dto/cancel-subscription.dto';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { MinuteGrantDto } from './dto/minute-grant.dto';
import { StartTrialDto } from './dto/start-trial.dto';
import { Subscription } from './entities/subscription.entity';
import { planId, planName } from './subscription-plans';
import { SubscriptionResponse } from './subscription.response';
import { TrialResponse } from './trial.response';
import { UsageHistoryRowResponse } from './usage-history-row.response';
import { UsageAdminService } from './usage-admin.service';

function subscriptionView(s: Subscription): SubscriptionResponse {
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

/** Admin API billing rows (docs/contracts/admin-api.md): what the dashboard and the payment processor change. */
@ApiTags('Usage and automations')
@AdminOnly()
@Controller('admin/v1')
export class AdminUsageController {
  constructor(private readonly usage: UsageAdminService) {}

  @Post('organizations/:orgId/subscriptions')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminCreateSubscription',
    summary: 'Subscribe an organization to a plan item; its included minutes are granted at once',
    description:
      'An outreach or complimentary item also converts a running trial. The period runs from `periodStart` ' +
      '(default now) to `periodEnd` (default a month later); 400 when it ends before it starts.',
  })
  @ApiDataResponse(SubscriptionResponse, { status: 201 })
  @ApiAdminErrors()
  async createSubscription(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateSubscriptionDto,
  ): Promise<{ data: SubscriptionResponse }> {
    return {
      data: subscriptionView(await this.usage.createSubscription(orgId, dto)),
    };
  }

  @Post('subscriptions/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminCancelSubscription',
    summary: 'Cancel a subscription now (unspent included minutes expire) or at the end of its period',
    description: '404 for an unknown subscription; 422 INVALID_STATE when it has already ended.',
  })
  @ApiDataResponse(SubscriptionResponse)
  @ApiAdminErrors('INVALID_STATE')
  async cancel(
    @Param('id', IdParamPipe) id: string,
    @Body() dto: CancelSubscriptionDto,
  ): Promise<{ data: SubscriptionResponse }> {
    return {
      data: subscriptionView(await this.usage.cancelSubscription(id, dto)),
    };
  }

  @Post('subscriptions/:id/renew')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminRenewSubscription',
    summary: 'Start the next period now (ledger row `monthly_renewal`)',
    description:
      "The current period's unspent included minutes expire and the next period's are granted; one set to end " +
      'at its period end ends now instead. 404 for an unknown subscription; 422 INVALID_STATE when it has ended.',
  })
  @ApiDataResponse(SubscriptionResponse)
  @ApiAdminErrors('INVALID_STATE')
  async renew(@Param('id', IdParamPipe) id: string): Promise<{ data: SubscriptionResponse }> {
    return { data: subscriptionView(await this.usage.renewSubscription(id)) };
  }

  @Post('organizations/:orgId/trial')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminStartTrial',
    summary: "Start the organization's one free trial with its minutes (ledger row `trial_activation`)",
    description: '409 CONFLICT when the organization already had a trial; 400 when it would already have ended.',
  })
  @ApiDataResponse(TrialResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT')
  async startTrial(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: StartTrialDto,
  ): Promise<{ data: TrialResponse }> {
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
  @ApiOperation({
    operationId: 'adminGrantMinutes',
    summary: 'Add minutes (carried forward) or, with a negative admin_adjustment, remove free minutes',
    description:
      'Answers the ledger row written. 400 when a negative amount is not an admin_adjustment or exceeds the ' +
      'minutes free to remove (minutes reserved by calls in flight are never removed).',
  })
  @ApiDataResponse(UsageHistoryRowResponse, { status: 201 })
  @ApiAdminErrors()
  async grant(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: MinuteGrantDto,
  ): Promise<{ data: UsageHistoryRowResponse }> {
    return {
      data: UsageHistoryRowResponse.from(await this.usage.grantMinutes(orgId, dto)),
    };
  }
}
