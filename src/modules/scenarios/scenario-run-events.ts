import { Injectable, OnModuleInit } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import { ScenarioRunResponse } from './scenario-run.response';
import { ScenarioRunsRepository } from './scenario-runs.repository';

/** `scenario_run.completed` (extension): the body is the run as GET /api/v1/scenario-runs/{id} shows it. */
@Injectable()
export class ScenarioRunEvents implements OnModuleInit {
  constructor(
    private readonly bodies: EventBodies,
    private readonly runs: ScenarioRunsRepository,
  ) {}

  onModuleInit(): void {
    this.bodies.register({
      'scenario_run.completed': (world, { runId }) => this.render(world, runId),
    } satisfies EventBodyRenderers<EventFamily<'scenario_run'>>);
  }

  private async render(world: World, runId: string): Promise<Record<string, unknown> | null> {
    const run = await this.runs.find(world, runId);
    return run && { ...ScenarioRunResponse.from(run) };
  }
}
