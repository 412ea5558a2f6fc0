import { Injectable } from '@nestjs/common';
import type { NoJobData } from '../../infra/queue/job-data';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { RunScenarioCommand } from './run-scenario.command';
import { ScenarioRunQueue } from './scenario-run-queue';
import { ScenarioRunsRepository } from './scenario-runs.repository';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.PlayScenarioRun]: PlayScenarioRunJobData;
    [JobName.SweepScenarioRuns]: NoJobData;
  }
}

export interface PlayScenarioRunJobData {
  runId: string;
}

const SWEEP_EVERY_MS = 15_000;
const SWEEP_BATCH = 200;

/**
 * Plays scenario runs off the queue, which holds only their ids: PostgreSQL holds the runs, and the sweeper
 * enqueues again what a lost job or a dead worker left `queued` or `running` (the claim decides who plays it).
 */
@Injectable()
export class ScenarioRunJob {
  constructor(
    private readonly run: RunScenarioCommand,
    private readonly runs: ScenarioRunsRepository,
    private readonly queue: ScenarioRunQueue,
  ) {}

  @OnJob({ name: JobName.PlayScenarioRun })
  async play(data: PlayScenarioRunJobData): Promise<void> {
    await this.run.execute(data.runId);
  }

  @OnJob({ name: JobName.SweepScenarioRuns, schedule: { every: SWEEP_EVERY_MS } })
  async sweep(): Promise<{ requeued: number }> {
    const stale = await this.runs.stale(SWEEP_BATCH);
    await this.queue.enqueue(stale);
    return { requeued: stale.length };
  }
}
