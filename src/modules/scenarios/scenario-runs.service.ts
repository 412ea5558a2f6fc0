import { Injectable } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { RunCaseScenariosDto, RunScenarioDto } from './dto/run-scenario.dto';
import { CaseScenarioRunsResponse, ScenarioRunResponse } from './scenario-run.response';
import { ScenarioRunsRepository } from './scenario-runs.repository';
import { ScenariosRepository } from './scenarios.repository';
import { ScenariosService } from './scenarios.service';
import { StartScenarioRunsCommand } from './start-scenario-runs.command';

/** Starting runs (through StartScenarioRunsCommand) and reading them, in the key's world. */
@Injectable()
export class ScenarioRunsService {
  constructor(
    private readonly scenarios: ScenariosService,
    private readonly scenarioRows: ScenariosRepository,
    private readonly runs: ScenarioRunsRepository,
    private readonly starter: StartScenarioRunsCommand,
    private readonly codec: CursorCodec,
  ) {}

  /** A scenario's runs, newest first (404 for a scenario the world does not have). */
  async listOfScenario(world: World, scenarioId: string, query: PageQueryDto): Promise<Page<ScenarioRunResponse>> {
    await this.scenarios.get(world, scenarioId);
    return keysetPaginate(this.runs.ofScenarioQuery(world, scenarioId), {
      alias: 'r',
      filters: { scenarioId },
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      map: ScenarioRunResponse.from,
    });
  }

  async get(world: World, id: string): Promise<ScenarioRunResponse> {
    const run = await this.runs.find(world, id);
    if (!run) throw ApiError.notFound('Scenario run');
    return ScenarioRunResponse.from(run);
  }

  async start(world: World, scenarioId: string, dto: RunScenarioDto): Promise<ScenarioRunResponse> {
    const scenario = await this.scenarios.get(world, scenarioId);
    const [run] = await this.starter.execute(world, scenario.caseId, [scenario], dto.caseVersion);
    return ScenarioRunResponse.from(run);
  }

  /** Every scenario of the case in the key's world; none is 202 with no runs. */
  async startCase(world: World, dto: RunCaseScenariosDto): Promise<CaseScenarioRunsResponse> {
    const scenarios = await this.scenarioRows.ofCase(world, dto.caseId);
    const runs = await this.starter.execute(world, dto.caseId, scenarios, dto.caseVersion);
    return {
      runs: runs.map(ScenarioRunResponse.from),
      summary: { passed: 0, failed: 0, pending: runs.length },
    };
  }
}
