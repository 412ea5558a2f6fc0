import { Injectable } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
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
  ) {}

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
