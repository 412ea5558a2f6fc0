import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { KeyWorld, World } from '../../common/auth/world';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { UsageHistoryQueryDto } from './dto/usage-history-query.dto';
import { UsageHistoryRowResponse } from './usage-history-row.response';
import { UsageHistoryService } from './usage-history.service';
import { UsageSummaryResponse } from './usage-summary.response';
import { UsageSummaryService } from './usage-summary.service';

@ApiTags('Usage')
@Controller('api/v1/usage')
export class UsageController {
  constructor(
    private readonly summary: UsageSummaryService,
    private readonly history: UsageHistoryService,
  ) {}

  @Get()
  @RequireScope('usage:read')
  @ApiOperation({
    operationId: 'getUsage',
    summary: 'Plan, minute balance, current-period usage and allowance',
    description:
      "The organization's plan and its live minutes, whichever key asks: test calls are free and never move " +
      'them. The history (`/usage/history`) is live-only: a `test` key always gets an empty page.',
  })
  @ApiDataResponse(UsageSummaryResponse)
  async get(@OrgId() orgId: string): Promise<{ data: UsageSummaryResponse }> {
    return { data: await this.summary.summarize(orgId) };
  }

  @Get('history')
  @RequireScope('usage:read')
  @ApiOperation({
    operationId: 'listUsageHistory',
    summary: 'Balance movements, newest first',
  })
  @ApiPageResponse(UsageHistoryRowResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@KeyWorld() world: World, @Query() query: UsageHistoryQueryDto): Promise<Page<UsageHistoryRowResponse>> {
    return this.history.list(world, query);
  }
}
