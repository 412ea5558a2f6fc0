import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World, worldWhere } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { lockForTransaction } from '../../infra/database/advisory-locks';
import { inTransaction } from '../../infra/database/tx';
import { CasesService } from '../cases/cases.service';
import { Scenario } from './scenario.entity';
import { ScenarioRun } from './scenario-run.entity';
import { ScenarioRunQueue } from './scenario-run-queue';
import { queuedRun, ScenarioRunsRepository } from './scenario-runs.repository';

/**
 * Starts runs of scenarios of one case (docs/testing-your-assistant.md, "Running"): the case's version checked
 * (its current one when none is named), the organization's budget checked under its lock (runs per minute, runs
 * in flight: 429 RATE_LIMITED with `Retry-After`, all or none of the runs), the runs inserted `queued`, then each
 * enqueued after the commit (a lost enqueue is found by the sweeper in PostgreSQL).
 */
@Injectable()
export class StartScenarioRunsCommand {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: ScenarioRunsRepository,
    private readonly cases: CasesService,
    private readonly queue: ScenarioRunQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(
    world: World,
    caseId: string,
    scenarios: readonly Scenario[],
    caseVersion?: number,
  ): Promise<ScenarioRun[]> {
    const started = await inTransaction(this.dataSource, async (m) => {
      const kase = await this.cases.getForCall(m, world.organizationId, caseId, caseVersion);
      await lockForTransaction(m, 'scenarioRuns', world.organizationId);
      const load = await this.runs.load(m, world.organizationId);
      if (load.lastMinute + scenarios.length > this.config.scenarioRunsPerMinute) {
        throw rateLimited(`at most ${this.config.scenarioRunsPerMinute} scenario runs a minute`, 60);
      }
      if (load.inFlight + scenarios.length > this.config.scenarioRunsInFlight) {
        throw rateLimited(`at most ${this.config.scenarioRunsInFlight} scenario runs queued or running at once`, 5);
      }
      return this.runs.insertMany(
        m,
        scenarios.map((s) =>
          queuedRun({ id: uuidv7(), ...worldWhere(world), scenarioId: s.id, caseId, caseVersion: kase.version }),
        ),
      );
    });
    await this.queue.enqueue(started.map((r) => r.id));
    return started;
  }
}

function rateLimited(what: string, retryAfterSeconds: number): ApiError {
  return new ApiError('RATE_LIMITED', `An organization may start ${what}`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
}
