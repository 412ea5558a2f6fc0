import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { DomainEventListener, DomainEventMessage } from '../../outbox/domain-event';
import { DomainEventFanoutService } from '../../outbox/domain-event-fanout.service';
import { OutboxService } from '../../outbox/outbox.service';
import { AnswerMessageCommand } from './answer-message.command';

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
export class AnswerChatMessageJob implements OnModuleInit, DomainEventListener {
  constructor(
    private readonly fanout: DomainEventFanoutService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly answer: AnswerMessageCommand,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.fanout.subscribe(this);
  }

  async onDomainEvent(event: DomainEventMessage): Promise<void> {
    if (event.type !== 'message.received') return;
    const data = await this.outbox.payloadOf(this.dataSource.manager, event.eventId);
    if (!data || data.senderType !== 'user' || typeof data.id !== 'string') return;
    const job: AnswerChatMessageJobData = { messageId: data.id };
    await this.jobs.add(JobName.AnswerChatMessage, job, {
      jobId: `answer-${data.id}`,
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
