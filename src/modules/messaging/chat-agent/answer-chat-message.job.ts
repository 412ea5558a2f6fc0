import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Job } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { DomainEvent, DomainEventHandler } from '../../outbox/domain-event-handler';
import { DomainEventFanoutService } from '../../outbox/domain-event-fanout.service';
import { AnswerMessageCommand } from './answer-message.command';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.AnswerChatMessage]: AnswerChatMessageJobData;
  }
}

/**
 * Attempts at one answer: the first and three retries, after CHAT_AGENT_RETRY_BASE_MS (default 2 s), twice and four
 * times that (README "Chat agent").
 */
export const ANSWER_ATTEMPTS = 4;

export interface AnswerChatMessageJobData {
  messageId: string;
}

/**
 * Answers user messages off the provider's webhook: the `message.received` event (recorded with the message, so
 * it exists if and only if the message does) enqueues one job per message, and the worker answers it. The queue
 * only carries the message id; the reply claim in PostgreSQL, not the job id, is what makes the answer happen once.
 */
@Injectable()
export class AnswerChatMessageJob implements OnModuleInit, DomainEventHandler<'message.received'> {
  readonly types = ['message.received'] as const;

  constructor(
    private readonly fanout: DomainEventFanoutService,
    private readonly jobs: JobQueue,
    private readonly answer: AnswerMessageCommand,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.fanout.on(this);
  }

  async handle({ payload }: DomainEvent<'message.received'>): Promise<void> {
    if (payload.senderType !== 'user') return;
    const job: AnswerChatMessageJobData = { messageId: payload.messageId };
    await this.jobs.add(JobName.AnswerChatMessage, job, {
      jobId: `answer-${payload.messageId}`,
      attempts: ANSWER_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.config.chatAgentRetryBaseMs },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }

  @OnJob({ name: JobName.AnswerChatMessage })
  async run(data: AnswerChatMessageJobData, job: Job): Promise<void> {
    await this.answer.execute(data.messageId, job.attemptsMade + 1 >= (job.opts.attempts ?? 1));
  }
}
