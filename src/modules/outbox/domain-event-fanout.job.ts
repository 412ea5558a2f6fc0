import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { DomainEventMessage } from './domain-event';
import { DomainEventFanoutService } from './domain-event-fanout.service';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.DomainEvent]: DomainEventMessage;
  }
}

/** The domain-events queue's consumer: hands each relayed event to the subscribed listeners. */
@Injectable()
export class DomainEventFanoutJob {
  constructor(private readonly fanout: DomainEventFanoutService) {}

  @OnJob({ name: JobName.DomainEvent })
  handle(event: DomainEventMessage): Promise<void> {
    return this.fanout.handle(event);
  }
}
