import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { AutomationsService } from '../automations/automations.service';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { UsageHistoryQueryDto } from '../usage/dto/usage-history-query.dto';
import { UsageHistoryRowResponse } from '../usage/usage-history-row.response';
import { UsageHistoryService } from '../usage/usage-history.service';
import { UsageSummaryResponse } from '../usage/usage-summary.response';
import { UsageSummaryService } from '../usage/usage-summary.service';
import { AutomationResponse } from './console-responses';
import { ScheduleStatusDto } from './dto/schedule-status.dto';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/** Usage (the ledger's own summary and history) and the automations that spend it. */
@ApiTags('Usage and automations')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class ConsoleUsageController {
  constructor(
    private readonly summary: UsageSummaryService,
    private readonly history: UsageHistoryService,
    private readonly automations: AutomationsService,
  ) {}

  @Get('usage')
  @ApiOperation({ operationId: 'adminGetUsage', summary: 'Plan, balance and period usage (GET /api/v1/usage)' })
  @ApiDataResponse(UsageSummaryResponse)
  @ApiAdminErrors()
  async get(@Param('orgId', ExistingOrganizationPipe) orgId: string) {
    return { data: await this.summary.summarize(orgId) };
  }

  @Get('usage/history')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminListUsageHistory', summary: 'Ledger rows, newest first, with filters' })
  @ApiPageResponse(UsageHistoryRowResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  listHistory(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: UsageHistoryQueryDto,
  ): Promise<Page<UsageHistoryRowResponse>> {
    return this.history.list(world, query);
  }

  @Get('automations')
  @ApiOperation({
    operationId: 'adminListAutomations',
    summary: 'Recurring schedules and follow-up campaigns, newest first (at most 200 of each)',
  })
  @ApiDataResponse(AutomationResponse, { isArray: true })
  @ApiAdminErrors()
  async listAutomations(@Param('orgId', ExistingOrganizationPipe) orgId: string) {
    const { recurringSchedules, followUpCampaigns } = await this.automations.list(orgId);
    return {
      data: [
        ...recurringSchedules.map(AutomationResponse.fromSchedule),
        ...followUpCampaigns.map(AutomationResponse.fromCampaign),
      ],
    };
  }

  @Post('recurring-schedules/:id/status')
  @HttpCode(200)
  @ApiOperation({ operationId: 'adminSetScheduleStatus', summary: 'Pause or resume a recurring schedule' })
  @ApiDataResponse(AutomationResponse)
  @ApiAdminErrors()
  async setStatus(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: ScheduleStatusDto,
  ) {
    return { data: AutomationResponse.fromSchedule(await this.automations.setScheduleStatus(orgId, id, dto.status)) };
  }
}
