import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CampaignActionsService } from '../campaigns/campaign-actions.service';
import { CampaignAction } from '../campaigns/campaign-state';
import { CampaignsService } from '../campaigns/campaigns.service';
import { ConsoleCampaignResponse } from './console-campaign.response';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/** Dialer campaigns (CONTRACTS §9) with their progress, and the public routes' state moves, for any organization. */
@ApiTags('Usage and automations')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/campaigns')
export class ConsoleCampaignsController {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly actions: CampaignActionsService,
  ) {}

  @Get()
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminListCampaigns',
    summary: 'Campaigns with progress counts, newest first (GET /api/v1/campaigns)',
  })
  @ApiPageResponse(ConsoleCampaignResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  async list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: PageQueryDto,
  ): Promise<Page<ConsoleCampaignResponse>> {
    const page = await this.campaigns.list(world, query);
    return { ...page, data: page.data.map(ConsoleCampaignResponse.withActions) };
  }

  @Post(':id/start')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminStartCampaign',
    summary: 'Start a draft campaign (POST /api/v1/campaigns/{id}/start)',
  })
  @ApiDataResponse(ConsoleCampaignResponse)
  @ApiAdminErrors('INVALID_STATE')
  start(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'start');
  }

  @Post(':id/pause')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminPauseCampaign', summary: 'Pause a scheduled or running campaign' })
  @ApiDataResponse(ConsoleCampaignResponse)
  @ApiAdminErrors('INVALID_STATE')
  pause(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'pause');
  }

  @Post(':id/resume')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminResumeCampaign', summary: 'Resume a paused campaign' })
  @ApiDataResponse(ConsoleCampaignResponse)
  @ApiAdminErrors('INVALID_STATE')
  resume(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'resume');
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminCancelCampaign', summary: 'Cancel a campaign for good' })
  @ApiDataResponse(ConsoleCampaignResponse)
  @ApiAdminErrors('INVALID_STATE')
  cancel(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'cancel');
  }

  private async move(world: World, id: string, action: CampaignAction): Promise<{ data: ConsoleCampaignResponse }> {
    return { data: ConsoleCampaignResponse.withActions(await this.actions.apply(world, id, action)) };
  }
}
