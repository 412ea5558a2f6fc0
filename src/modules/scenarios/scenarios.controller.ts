import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { CreateScenarioDto } from './dto/create-scenario.dto';
import { ListScenariosQueryDto } from './dto/list-scenarios-query.dto';
import { RunCaseScenariosDto, RunScenarioDto } from './dto/run-scenario.dto';
import { UpdateScenarioDto } from './dto/update-scenario.dto';
import { SCENARIO_BOUNDS } from './scenario-bounds';
import { CaseScenarioRunsResponse, ScenarioRunResponse } from './scenario-run.response';
import { ScenarioResponse } from './scenario.response';
import { ScenarioRunsService } from './scenario-runs.service';
import { ScenariosService } from './scenarios.service';

const RUNS =
  "Runs the turns as a text conversation with the case version through the chat platform of the key's world " +
  "(test: the simulator, deterministic; live: the voice platform's chat API) off the request: 202 with the run " +
  '`queued`, read it by its id. Never places a call, bills a minute or sends a message. An organization starts ' +
  'at most `SCENARIO_RUNS_PER_MINUTE` (100) runs a minute and has at most `SCENARIO_RUNS_IN_FLIGHT` (50) queued ' +
  'or running: 429 RATE_LIMITED with `Retry-After` (none of the runs started). Extension ' +
  '(docs/testing-your-assistant.md).';

@ApiTags('Scenarios (extension)')
@Controller('api/v1/scenarios')
export class ScenariosController {
  constructor(
    private readonly scenarios: ScenariosService,
    private readonly runs: ScenarioRunsService,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('cases:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'createScenario',
    summary: "Create a scenario: a scripted conversation with a case's assistant and what it must show",
    description:
      `Turns 1-${SCENARIO_BOUNDS.turns} (each 1-${SCENARIO_BOUNDS.turnText} characters); replyIncludes and ` +
      `replyExcludes at most ${SCENARIO_BOUNDS.replyStrings} strings each (1-${SCENARIO_BOUNDS.replyText} ` +
      `characters); at most ${SCENARIO_BOUNDS.toolCalls} tool calls. 404 NOT_FOUND for a case the organization ` +
      `does not have; 422 MAX_SCENARIOS past ${SCENARIO_BOUNDS.perCase} scenarios of one case in the key's world. ` +
      'Extension (docs/testing-your-assistant.md).',
  })
  @ApiDataResponse(ScenarioResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'MAX_SCENARIOS')
  async create(@KeyWorld() world: World, @Body() dto: CreateScenarioDto): Promise<{ data: ScenarioResponse }> {
    return { data: ScenarioResponse.from(await this.scenarios.create(world, dto)) };
  }

  @Get()
  @RequireScope('cases:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'listScenarios',
    summary: "The key's world's scenarios, of one case when `caseId` is given, newest first",
  })
  @ApiPageResponse(ScenarioResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@KeyWorld() world: World, @Query() query: ListScenariosQueryDto): Promise<Page<ScenarioResponse>> {
    return this.scenarios.list(world, query);
  }

  @Post('runs')
  @HttpCode(202)
  @RequireScope('cases:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'runCaseScenarios',
    summary: "Run every scenario of a case (in the key's world)",
    description: RUNS,
  })
  @ApiDataResponse(CaseScenarioRunsResponse, { status: 202 })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'RATE_LIMITED')
  async runCase(
    @KeyWorld() world: World,
    @Body() dto: RunCaseScenariosDto,
  ): Promise<{ data: CaseScenarioRunsResponse }> {
    return { data: await this.runs.startCase(world, dto) };
  }

  @Get(':id')
  @RequireScope('cases:read')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'getScenario', summary: 'Get a scenario' })
  @ApiDataResponse(ScenarioResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: ScenarioResponse }> {
    return { data: ScenarioResponse.from(await this.scenarios.get(world, id)) };
  }

  @Patch(':id')
  @RequireScope('cases:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'updateScenario',
    summary: 'Change a scenario: each field given replaces the stored one (`expect` as a whole)',
    description:
      'The bounds of a new scenario; a null leaves a field as it is; its case cannot change. A run plays the ' +
      'scenario as it is when played (a run still queued plays the change); ended runs keep their results. ' +
      'Extension (docs/testing-your-assistant.md).',
  })
  @ApiDataResponse(ScenarioResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async update(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateScenarioDto,
  ): Promise<{ data: ScenarioResponse }> {
    return { data: ScenarioResponse.from(await this.scenarios.update(world, id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @RequireScope('cases:write')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'deleteScenario', summary: 'Delete a scenario (its runs stay readable)' })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async delete(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.scenarios.delete(world, id);
  }

  @Post(':id/runs')
  @HttpCode(202)
  @RequireScope('cases:write')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'runScenario', summary: 'Run a scenario', description: RUNS })
  @ApiDataResponse(ScenarioRunResponse, { status: 202 })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'RATE_LIMITED')
  async run(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: RunScenarioDto,
  ): Promise<{ data: ScenarioRunResponse }> {
    return { data: await this.runs.start(world, id, dto) };
  }
}
