import { Injectable } from '@nestjs/common';
import { OnJob } from '../../../../infra/queue/on-job.decorator';
import { JobName } from '../../../../infra/queue/queue-names';
import { DeliveryStatus } from '../../../messaging/message.entity';
import { MessagingIngress } from '../../../messaging/providers/messaging-ingress';

declare module '../../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SimulateMessageStatus]: SimulatedStatusJobData;
  }
}

/** Time between two simulated status reports. */
export const SIMULATED_STATUS_STEP_MS = 200;

export interface SimulatedStatusJobData {
  accountId: string;
  providerMessageId: string;
  status: DeliveryStatus;
}

/**
 * One simulated status report: a delayed job, so reports survive a restart, applied through the same ingress
 * as the real provider's webhook. Registered whatever the provider, as every job name needs a handler.
 */
@Injectable()
export class SimulatedStatusJob {
  constructor(private readonly ingress: MessagingIngress) {}

  @OnJob({ name: JobName.SimulateMessageStatus })
  async report(data: SimulatedStatusJobData): Promise<void> {
    await this.ingress.apply({ kind: 'delivery-status', ...data });
  }
}
