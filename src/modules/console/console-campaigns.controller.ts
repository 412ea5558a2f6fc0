import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CampaignActionsService } from '../campaigns/campaign-actions.service';
import { CampaignAction } from '../campaigns/campaign-state';
import { CampaignEntryResponse } from '../campaigns/campaign-entry.response';
import { CampaignsService } from '../campaigns/campaigns.service';
import { CampaignVariantsResponse } from '../campaigns/campaign-variants.response';
import { CreateCampaignCommand } from '../campaigns/create-campaign.command';
import { CreateCampaignDto } from '../campaigns/dto/create-campaign.dto';
import { ConsoleCampaignResponse, ConsoleCreatedCampaignResponse } from './console-campaign.response';
import { CreatedCampaignResponse } from '../campaigns/created-campaign.response';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/** Dialer campaigns (docs/contracts/dialer.md) with their progress, and the public routes' state moves, for any organization. */
@ApiTags('Usage and automations')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/campaigns')
export class ConsoleCampaignsController {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly actions: CampaignActionsService,
    private readonly create: CreateCampaignCommand,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminCreateCampaign',
    summary: 'Create a campaign in draft in the chosen world (POST /api/v1/campaigns: same body, bounds and errors)',
  })
  @ApiDataResponse(ConsoleCreatedCampaignResponse, { status: 201 })
  @ApiAdminErrors('VALIDATION_ERROR@422', 'INVALID_PHONE', 'DESTINATION_NOT_ALLOWED')
  async createCampaign(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Body() dto: CreateCampaignDto,
  ): Promise<{ data: ConsoleCreatedCampaignResponse }> {
    const { campaign, preflight } = await this.create.fromApi(world.organizationId, dto, world.livemode);
    const shown = ConsoleCampaignResponse.withActions(await this.campaigns.present(campaign));
    return { data: CreatedCampaignResponse.of(shown, preflight, dto.skipInvalidRows) };
  }

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

  @Get(':id')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({ operationId: 'adminGetCampaign', summary: 'A campaign with its progress and outcomes' })
  @ApiDataResponse(ConsoleCampaignResponse)
  @ApiAdminErrors()
  async get(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: ConsoleCampaignResponse }> {
    return {
      data: ConsoleCampaignResponse.withActions(await this.campaigns.present(await this.campaigns.get(world, id))),
    };
  }

  @Get(':id/variants')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminGetCampaignVariants',
    summary: "An A/B campaign's variants side by side (GET /api/v1/campaigns/{id}/variants)",
  })
  @ApiDataResponse(CampaignVariantsResponse)
  @ApiAdminErrors()
  async variants(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: CampaignVariantsResponse }> {
    return { data: await this.campaigns.variants(world, id) };
  }

  @Get(':id/entries')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminListCampaignEntries',
    summary: 'The entries of a campaign with their attempts (GET /api/v1/campaigns/{id}/entries)',
  })
  @ApiPageResponse(CampaignEntryResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  entries(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<CampaignEntryResponse>> {
    return this.campaigns.listEntries(world, id, query);
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
