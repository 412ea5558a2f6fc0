import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { CallDetailResponse, CallResponse } from '../calls/call.response';
import { CallStatsService } from '../calls/call-stats.service';
import { CallsService } from '../calls/calls.service';
import { CreateCallCommand } from '../calls/create-call.command';
import { EndCallCommand } from '../calls/end-call.command';
import { CreateCallDto } from '../calls/dto/create-call.dto';
import { ConsoleListCallsQueryDto } from './dto/console-list-calls-query.dto';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { UsageDailyService } from '../usage/usage-daily.service';
import { OverviewResponse } from './console-responses';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

const OVERVIEW_DAYS = 30;

/** An organization's calls as the console shows them: the calls service's own list, detail and create. */
@ApiTags('Calls')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class ConsoleCallsController {
  constructor(
    private readonly calls: CallsService,
    private readonly createCall: CreateCallCommand,
    private readonly endCall: EndCallCommand,
    private readonly stats: CallStatsService,
    private readonly daily: UsageDailyService,
  ) {}

  @Get('overview')
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminGetOverview',
    summary: 'Minutes by day and calls by status over the last 30 days',
  })
  @ApiDataResponse(OverviewResponse)
  @ApiAdminErrors()
  async overview(@ConsoleWorld(ExistingWorldPipe) world: World): Promise<{ data: OverviewResponse }> {
    const to = new Date();
    const from = new Date(to.getTime() - (OVERVIEW_DAYS - 1) * 86_400_000);
    const [minutesByDay, callsByStatus] = await Promise.all([
      // Minutes are the live world's (test calls are free): the test world has none to show.
      world.livemode ? this.daily.byDay(world.organizationId, from, to) : [],
      this.stats.countByStatus(world, from),
    ]);
    return { data: { minutesByDay, callsByStatus } };
  }

  @Get('calls')
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminListCalls',
    summary: "An organization's calls, newest first (GET /api/v1/calls), searchable by number (`number`)",
  })
  @ApiPageResponse(CallResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: ConsoleListCallsQueryDto,
  ): Promise<Page<CallResponse>> {
    return this.calls.list(world, query);
  }

  @Get('calls/:id')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminGetCall', summary: 'One call with its transcript (GET /api/v1/calls/{id})' })
  @ApiDataResponse(CallDetailResponse)
  @ApiAdminErrors()
  async get(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: CallDetailResponse }> {
    return { data: CallDetailResponse.fromWithTranscript(await this.calls.get(world, id)) };
  }

  @Post('calls/:id/end')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminEndCall',
    summary: 'End a live call now (the console button; POST /api/v1/calls/{id}/end)',
  })
  @ApiDataResponse(CallResponse)
  @ApiAdminErrors('INVALID_STATE', 'SERVICE_UNAVAILABLE')
  async end(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: CallResponse }> {
    return { data: CallResponse.from(await this.endCall.execute(world, id)) };
  }

  @Post('test-calls')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminPlaceTestCall',
    summary: 'Place a call from the console (the test-call button)',
    description:
      'A test-mode call (docs/contracts/modes.md): the same rules as POST /api/v1/calls for its fields and variables, but ' +
      'it always runs on the voice simulator whatever VOICE_PROVIDER says (docs/contracts/simulator.md: the last digit of `to` ' +
      'picks the outcome) and consumes no minutes.',
  })
  @ApiDataResponse(CallResponse, { status: 201 })
  @ApiAdminErrors('INVALID_PHONE', 'DO_NOT_CALL', 'DESTINATION_NOT_ALLOWED')
  async testCall(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateCallDto,
  ): Promise<{ data: CallResponse }> {
    // A test-mode call (docs/contracts/modes.md): always on the simulator, free, fires like any call.
    return { data: CallResponse.from(await this.createCall.execute({ organizationId: orgId, livemode: false }, dto)) };
  }
}
