import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { QueueConnection, prefixOf } from './queue-connection';
import { QueueName } from './queue-names';
import { QUEUE_CONNECTION } from './queue.tokens';

/**
 * Completed jobs a queue keeps at most: a recent window for the queue dashboard, the same whatever the volume
 * (Redis runs `noeviction`, so what a finished job leaves behind must not grow with the traffic). Nothing reads a
 * completed job back for correctness: PostgreSQL records every outcome, and a relayed event re-enqueued after its
 * job left is recognised by its `processed_at` (DomainEventFanoutService).
 */
export const KEPT_COMPLETED_JOBS = 1000;

/**
 * Completed jobs are kept a day within that window; failed ones a week, for inspection.
 * Jobs whose outcome PostgreSQL records (webhook attempts) leave at once: see deliveryJobOptions.
 */
const DEFAULT_JOB_OPTIONS = {
  removeOnComplete: { age: 24 * 3600, count: KEPT_COMPLETED_JOBS },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * Entries kept in each queue's events stream (BullMQ's log of job state changes, ~140 B an entry; the default is
 * 10,000). Only QueueEvents listeners read it and the app has none: the stream is a bounded ring, kept short.
 */
export const EVENTS_STREAM_MAX_LENGTH = 1000;

/** The queues, wired once: every queue shares one connection choice (Redis or PostgreSQL). */
@Global()
@Module({})
export class QueueModule {
  static forRoot(connection: QueueConnection): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        BullModule.forRoot({
          connection: connection.connection,
          prefix: connection.prefix,
          defaultJobOptions: DEFAULT_JOB_OPTIONS,
          streams: { events: { maxLen: EVENTS_STREAM_MAX_LENGTH } },
        } as never),
        BullModule.registerQueue(
          ...Object.values(QueueName).map((name) => ({ name, prefix: prefixOf(connection, name) })),
        ),
      ],
      providers: [{ provide: QUEUE_CONNECTION, useValue: connection }, JobRegistry, JobQueue],
      exports: [BullModule, JobQueue, QUEUE_CONNECTION],
    };
  }
}
