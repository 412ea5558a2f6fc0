import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../infra/queue/job-queue';
import { JobName } from '../../infra/queue/queue-names';

/** Scenario runs on the queue: only their ids, one job per run (job id per run, so a repeat adds nothing). */
@Injectable()
export class ScenarioRunQueue {
  constructor(private readonly jobs: JobQueue) {}

  async enqueue(runIds: readonly string[]): Promise<void> {
    if (!runIds.length) return;
    await this.jobs.addBulk(
      JobName.PlayScenarioRun,
      runIds.map((runId) => ({
        data: { runId },
        opts: { jobId: `scenario-run-${runId}`, removeOnComplete: true, removeOnFail: 1000 },
      })),
    );
  }
}
