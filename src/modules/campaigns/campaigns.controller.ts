import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CampaignActionsService } from './campaign-actions.service';
import { CampaignEntryResponse } from './campaign-entry.response';
import { CampaignResponse } from './campaign.response';
import { CreatedCampaignResponse } from './created-campaign.response';
import { CampaignAction } from './campaign-state';
import { CampaignsService } from './campaigns.service';
import { CreateCampaignCommand } from './create-campaign.command';
import { CreateCampaignDto } from './dto/create-campaign.dto';
import { CampaignVariantsResponse } from './campaign-variants.response';

const ENGINE =
  'Extension (docs/contracts/dialer.md). A campaign calls each entry of its audience with the case, the outbound assistant ' +
  'and the `from` number, as ordinary calls carrying `campaignId` (listed in /calls, billed, with the usual ' +
  'webhooks). An entry is called only inside the calling window, evaluated in the contact time zone (the ' +
  "contact's `timeZone` custom field when valid, else the number's country when it has a single zone, else " +
  '`window.timezone`; DST-correct); at most `maxConcurrent` of its calls are live at once (and never more than ' +
  "the organization's concurrency limit), at most `callsPerMinute` start per minute; a number gets at most 3 " +
  'attempts per rolling 24 hours across all campaigns. An attempt whose endedReason is in `retry.on` is ' +
  'retried after `retry.delaySeconds` (still only inside the window) until `retry.maxAttempts` attempts in all. ' +
  'A number on the do-not-call list is skipped (skipReason DO_NOT_CALL), and so is a number the ' +
  "organization's destination rules refuse when it is dialled (skipReason DESTINATION_NOT_ALLOWED; creating a " +
  'campaign with such a number is 422 DESTINATION_NOT_ALLOWED naming it, docs/contracts/destinations.md). ' +
  'When the organization runs out of outbound minutes or plan the campaign pauses with pausedReason ' +
  'OUTBOUND_MINUTES_EXHAUSTED / OUTBOUND_PLAN_REQUIRED and resumes by itself once calls can be placed again. ' +
  'Extension (docs/number-health.md): with `fromNumbers` each call uses a number of the area code it calls, else ' +
  'the least used today, leaving `degraded` numbers out while others remain; with `maxCallsPerNumberPerDay`, ' +
  'once every number reached it the campaign pauses with DAILY_NUMBER_CAP and resumes the next day in the ' +
  "window's time zone. Webhook events: " +
  'campaign.started, campaign.paused, campaign.completed (data: the Campaign).';

const PREFLIGHT =
  'Every row is checked before anything is stored (extension): a row whose case variable marked `required` has ' +
  'no value (from its `variableValues`, its contact or the default) refuses the campaign with 422 ' +
  'VALIDATION_ERROR whose `details` name each refused row, 0-based (`audience.rows[13].variableValues.date: ' +
  'required by the case`; `audience.contactIds[i]`, `audience.groupId[i]` for the i-th member, oldest first), at ' +
  'most 100 listed. With `skipInvalidRows: true` the other rows are created and the answer lists the refused ones ' +
  'in `refusedRows` (numbers the destination rules refuse among them). The same number twice is called once: the ' +
  'first row wins and `duplicatesRemoved` says how many rows were left out.';

@ApiTags('Campaigns (extension)')
@Controller('api/v1/campaigns')
export class CampaignsController {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly create: CreateCampaignCommand,
    private readonly actions: CampaignActionsService,
  ) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @RequireScope('campaigns:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'createCampaign',
    summary: 'Create a campaign (in draft)',
    description: `${ENGINE} ${PREFLIGHT} Bounds: audience at most 10,000 (rows, contact ids or group members); maxConcurrent 1-100; callsPerMinute 1-600; retry.delaySeconds 0-604800; retry.maxAttempts 1-10.`,
  })
  @ApiDataResponse(CreatedCampaignResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'VALIDATION_ERROR@422', 'NOT_FOUND', 'INVALID_PHONE', 'DESTINATION_NOT_ALLOWED')
  async createCampaign(
    @KeyWorld() world: World,
    @Body() dto: CreateCampaignDto,
  ): Promise<{ data: CreatedCampaignResponse }> {
    const { campaign, preflight } = await this.create.fromApi(world.organizationId, dto, world.livemode);
    return { data: CreatedCampaignResponse.of(await this.campaigns.present(campaign), preflight, dto.skipInvalidRows) };
  }

  @Get()
  @RequireScope('campaigns:read')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'listCampaigns', summary: 'List campaigns, newest first', description: ENGINE })
  @ApiPageResponse(CampaignResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@KeyWorld() world: World, @Query() query: PageQueryDto): Promise<Page<CampaignResponse>> {
    return this.campaigns.list(world, query);
  }

  @Get(':id')
  @RequireScope('campaigns:read')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'getCampaign', summary: 'Get a campaign with its progress' })
  @ApiDataResponse(CampaignResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CampaignResponse }> {
    return { data: await this.campaigns.present(await this.campaigns.get(world, id)) };
  }

  @Get(':id/variants')
  @RequireScope('campaigns:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getCampaignVariants',
    summary: "An A/B campaign's variants side by side",
    description:
      'Per variant (a version of the case and its weight): entries assigned, calls placed, answered by a person, ' +
      'voicemail, analysis successes and failures, exact talk minutes and provider cost; with two variants, the ' +
      'two-proportion z-test p-value of their success rates. A campaign without variants answers no variants. ' +
      'Extension (docs/testing-your-assistant.md, "A/B").',
  })
  @ApiDataResponse(CampaignVariantsResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async variants(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: CampaignVariantsResponse }> {
    return { data: await this.campaigns.variants(world, id) };
  }

  @Get(':id/entries')
  @RequireScope('campaigns:read')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'listCampaignEntries', summary: 'List the entries of a campaign with their attempts' })
  @ApiPageResponse(CampaignEntryResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR', 'NOT_FOUND')
  entries(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<CampaignEntryResponse>> {
    return this.campaigns.listEntries(world, id, query);
  }

  @Post(':id/start')
  @HttpCode(200)
  @RequireScope('campaigns:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'startCampaign',
    summary: 'Start a draft campaign',
    description: 'draft -> running (or scheduled until `startAt`). Any other state: 422 INVALID_STATE.',
  })
  @ApiDataResponse(CampaignResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  start(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CampaignResponse }> {
    return this.move(world, id, 'start');
  }

  @Post(':id/pause')
  @HttpCode(200)
  @RequireScope('campaigns:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'pauseCampaign',
    summary: 'Pause a scheduled or running campaign',
    description: 'No new call is placed; calls already placed run to their end. Other states: 422 INVALID_STATE.',
  })
  @ApiDataResponse(CampaignResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  pause(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CampaignResponse }> {
    return this.move(world, id, 'pause');
  }

  @Post(':id/resume')
  @HttpCode(200)
  @RequireScope('campaigns:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'resumeCampaign',
    summary: 'Resume a paused campaign',
    description: 'paused -> running (or scheduled until `startAt`). Other states: 422 INVALID_STATE.',
  })
  @ApiDataResponse(CampaignResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  resume(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CampaignResponse }> {
    return this.move(world, id, 'resume');
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScope('campaigns:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'cancelCampaign',
    summary: 'Cancel a campaign for good',
    description:
      'Pending entries are never called; calls already placed run to their end. A completed or cancelled ' +
      'campaign: 422 INVALID_STATE.',
  })
  @ApiDataResponse(CampaignResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  cancel(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CampaignResponse }> {
    return this.move(world, id, 'cancel');
  }

  private async move(world: World, id: string, action: CampaignAction): Promise<{ data: CampaignResponse }> {
    return { data: await this.actions.apply(world, id, action) };
  }
}
