import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CreateScenarioDto } from '../scenarios/dto/create-scenario.dto';
import { ListScenariosQueryDto } from '../scenarios/dto/list-scenarios-query.dto';
import { RunCaseScenariosDto, RunScenarioDto } from '../scenarios/dto/run-scenario.dto';
import { UpdateScenarioDto } from '../scenarios/dto/update-scenario.dto';
import { CaseScenarioRunsResponse, ScenarioRunResponse } from '../scenarios/scenario-run.response';
import { ScenarioResponse } from '../scenarios/scenario.response';
import { ScenarioRunsService } from '../scenarios/scenario-runs.service';
import { ScenariosService } from '../scenarios/scenarios.service';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/**
 * Scenarios and their runs (docs/testing-your-assistant.md) in the world of the console's switch, through the
 * scenarios' own services: the same bodies, bounds, run budget and errors as /api/v1/scenarios.
 */
@ApiTags('Cases and assistants')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class ConsoleScenariosController {
  constructor(
    private readonly scenarios: ScenariosService,
    private readonly runs: ScenarioRunsService,
  ) {}

  @Get('scenarios')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminListScenarios',
    summary: 'Scenarios, of one case when `caseId` is given, newest first (GET /api/v1/scenarios)',
  })
  @ApiPageResponse(ScenarioResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: ListScenariosQueryDto,
  ): Promise<Page<ScenarioResponse>> {
    return this.scenarios.list(world, query);
  }

  @Post('scenarios')
  @HttpCode(201)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({ operationId: 'adminCreateScenario', summary: 'Create a scenario (POST /api/v1/scenarios)' })
  @ApiDataResponse(ScenarioResponse, { status: 201 })
  @ApiAdminErrors('MAX_SCENARIOS')
  async create(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Body() dto: CreateScenarioDto,
  ): Promise<{ data: ScenarioResponse }> {
    return { data: ScenarioResponse.from(await this.scenarios.create(world, dto)) };
  }

  @Post('scenarios/runs')
  @HttpCode(202)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminRunCaseScenarios',
    summary: 'Run every scenario of a case (POST /api/v1/scenarios/runs: the same run budget)',
  })
  @ApiDataResponse(CaseScenarioRunsResponse, { status: 202 })
  @ApiAdminErrors('RATE_LIMITED')
  async runCase(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Body() dto: RunCaseScenariosDto,
  ): Promise<{ data: CaseScenarioRunsResponse }> {
    return { data: await this.runs.startCase(world, dto) };
  }

  @Patch('scenarios/:id')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({ operationId: 'adminUpdateScenario', summary: 'Change a scenario (PATCH /api/v1/scenarios/{id})' })
  @ApiDataResponse(ScenarioResponse)
  @ApiAdminErrors()
  async update(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateScenarioDto,
  ): Promise<{ data: ScenarioResponse }> {
    return { data: ScenarioResponse.from(await this.scenarios.update(world, id, dto)) };
  }

  @Delete('scenarios/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({ operationId: 'adminDeleteScenario', summary: 'Delete a scenario (its runs stay readable)' })
  @ApiAdminErrors()
  async delete(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.scenarios.delete(world, id);
  }

  @Post('scenarios/:id/runs')
  @HttpCode(202)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminRunScenario',
    summary: 'Run a scenario (POST /api/v1/scenarios/{id}/runs: the same run budget)',
  })
  @ApiDataResponse(ScenarioRunResponse, { status: 202 })
  @ApiAdminErrors('RATE_LIMITED')
  async run(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: RunScenarioDto,
  ): Promise<{ data: ScenarioRunResponse }> {
    return { data: await this.runs.start(world, id, dto) };
  }

  @Get('scenarios/:id/runs')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminListScenarioRuns',
    summary: "A scenario's runs with their results, newest first (the console's history of a scenario)",
  })
  @ApiPageResponse(ScenarioRunResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  listRuns(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ScenarioRunResponse>> {
    return this.runs.listOfScenario(world, id, query);
  }

  @Get('scenario-runs/:id')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({ operationId: 'adminGetScenarioRun', summary: 'A scenario run (GET /api/v1/scenario-runs/{id})' })
  @ApiDataResponse(ScenarioRunResponse)
  @ApiAdminErrors()
  async getRun(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: ScenarioRunResponse }> {
    return { data: await this.runs.get(world, id) };
  }
}
