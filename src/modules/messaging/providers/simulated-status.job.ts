import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../infra/queue/job-queue.service';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { DeliveryStatusService } from '../delivery-status.service';
import { DeliveryStatus } from '../message.entity';

/** Time between two simulated status reports. */
export const SIMULATED_STATUS_STEP_MS = 200;

export interface SimulatedStatusJobData {
  accountId: string;
  providerMessageId: string;
  /** The reports still to make, first one now. */
  statuses: DeliveryStatus[];
}

/**
 * The simulator's status reports, one job per step so they survive a restart and go through the same
 * status path as the real provider's webhook. Registered whatever the provider, as every job needs a handler.
 */
@Injectable()
export class SimulatedStatusJob {
  constructor(
    private readonly statuses: DeliveryStatusService,
    private readonly jobs: JobQueue,
  ) {}

  @OnJob({ name: JobName.SimulateMessageStatus })
  async report(data: SimulatedStatusJobData): Promise<void> {
    const [status, ...rest] = data.statuses;
    if (!status) return;
    await this.statuses.apply(data.accountId, data.providerMessageId, status);
    if (rest.length) {
      await this.jobs.add<SimulatedStatusJobData>(
        JobName.SimulateMessageStatus,
        { ...data, statuses: rest },
        { delay: SIMULATED_STATUS_STEP_MS },
      );
    }
  }
}
