import { Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../infra/database/tx';
import { DeferJob } from '../../infra/queue/defer-job';
import { JobQueue } from '../../infra/queue/job-queue';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { DeliveryStatusService } from './delivery-status.service';
import { MessagesRepository } from './messages.repository';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { MessagingPlatforms } from './providers/messaging-platforms';
import { MessagingProvider, ResumableSend, SendLater, SendResult } from './providers/messaging-provider';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SendMessage]: SendMessageJobData;
  }
}

export interface SendMessageJobData {
  messageId: string;
  /** The provider's own request, sent again as it was. */
  resume: ResumableSend;
  /** Provider attempts made so far (pacing waits are not attempts). */
  attempt: number;
  /** The last attempt got no answer: this run comes after the wait for a status webhook naming the message. */
  awaitingStatus: boolean;
}

export type SendJobState = 'live' | 'gave-up' | 'none';

/** Attempts of a job that failed on our side (database or queue trouble), not the provider's answers. */
const JOB_ATTEMPTS = 5;
const jobIdOf = (messageId: string) => `send-${messageId}`;

/**
 * The send queue: an outbound message stored `accepted` that could not go at once is sent from here, on the
 * messaging queue (no queue of its own: each PostgreSQL-backed queue holds its own connections). One job per
 * message (job id per message id), so at most one attempt of a message is in flight. Each run:
 * - ends at once when the message has a provider id (taken, or named by its status webhook) or is no longer
 *   `accepted`;
 * - otherwise asks the provider again (`resume`): taken -> the provider id is stored; `later` -> the job parks
 *   itself (DeferJob) until then; refused -> the message fails with the provider's code (`message.failed`).
 *
 * A send left unanswered may have reached the provider: the job then waits WHATSAPP_RECONCILE_WAIT_MS for the status
 * webhook that names the message (`biz_opaque_callback_data`); `reconcile` stores the id it carries and wakes the
 * job, which finds the id and ends without sending again. Only when no report came in that time is it sent again.
 *
 * The queue holds nothing the row cannot give again: the request is kept on the message (`pendingSend`), and a job
 * that was never queued, was lost or gave up is queued again from it by SendMessageSweepJob (`requeue`).
 */
@Injectable()
export class SendMessageJob {
  private readonly logger = new Logger(SendMessageJob.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly messages: MessagesRepository,
    private readonly accounts: MessagingAccountsRepository,
    private readonly platforms: MessagingPlatforms,
    private readonly statuses: DeliveryStatusService,
  ) {}

  /** Queues the rest of a send that answered `later` (its first attempt made, or paced before it). */
  async enqueue(messageId: string, later: SendLater, attemptsMade: number): Promise<void> {
    await this.add(
      { messageId, resume: later.resume, attempt: attemptsMade, awaitingStatus: later.awaitingStatus },
      later.delayMs,
    );
  }

  /**
   * The state of the message's send job: `live` while it waits or runs, `gave-up` when it failed all its attempts
   * (kept for inspection), `none` when the queue holds none (never queued, or lost with the queue's store).
   */
  async jobOf(messageId: string): Promise<SendJobState> {
    const job = await this.jobs.find(JobName.SendMessage, jobIdOf(messageId));
    if (!job) return 'none';
    const state = await job.getState();
    if (state === 'failed') return 'gave-up';
    return state === 'completed' || state === 'unknown' ? 'none' : 'live';
  }

  /**
   * Queues a send rebuilt from its row (`pendingSend`), replacing a job that gave up. Whether an earlier attempt
   * reached the provider is unknown, so it is treated as unanswered: it waits `waitMs` (the provider's reconcile
   * wait) for a status report naming the message, and is sent again only when none came.
   */
  async requeue(messageId: string, resume: ResumableSend, waitMs: number): Promise<void> {
    const job = await this.jobs.find(JobName.SendMessage, jobIdOf(messageId));
    if (job && (await job.getState()) === 'failed') await job.remove();
    await this.add({ messageId, resume, attempt: 1, awaitingStatus: true }, waitMs);
  }

  private async add(data: SendMessageJobData, delayMs: number): Promise<void> {
    await this.jobs.add(JobName.SendMessage, data, {
      jobId: jobIdOf(data.messageId),
      delay: delayMs,
      attempts: JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
    // A status webhook may have named the message before the job existed; its wake-up found nothing to promote.
    if (data.awaitingStatus) await this.wakeIfNamed(data.messageId);
  }

  /**
   * A status report carried our message id (`biz_opaque_callback_data`): the message gets the provider's id if it
   * has none yet, and its waiting job runs now (and ends, finding the id). False when the id names no outbound
   * message of this account, or one that has another provider id.
   */
  async reconcile(accountId: string, messageId: string, providerMessageId: string): Promise<boolean> {
    const attached = await inTransaction(this.dataSource, (tx) =>
      this.messages.attachProviderId(tx, accountId, messageId, providerMessageId),
    );
    if (attached) await this.jobs.promote(JobName.SendMessage, jobIdOf(messageId));
    return attached;
  }

  @OnJob({ name: JobName.SendMessage })
  async run(data: SendMessageJobData, job: Job<SendMessageJobData>): Promise<void> {
    const message = await this.messages.findById(data.messageId);
    if (!message || message.providerMessageId || message.deliveryStatus !== 'accepted') return;
    const account = await this.accounts.find(message.accountId);
    if (!account) {
      await this.statuses.failUnsent(message.id, { code: 0, title: 'The messaging account no longer exists' });
      return;
    }
    if (data.awaitingStatus) {
      this.logger.warn(
        { messageId: message.id },
        'No status webhook named an unanswered send in time; sending it again',
      );
    }
    const provider = this.platforms.of(account);
    const result = await provider.resume(account, data.resume, data.attempt);
    await this.settle(provider, account.id, message.id, result, data, job);
  }

  private async settle(
    provider: MessagingProvider,
    accountId: string,
    messageId: string,
    result: SendResult,
    data: SendMessageJobData,
    job: Job<SendMessageJobData>,
  ): Promise<void> {
    if (result.ok === true) {
      const attached = await inTransaction(this.dataSource, (tx) =>
        this.messages.attachProviderId(tx, accountId, messageId, result.providerMessageId),
      );
      if (!attached) {
        // A status report of an earlier, unanswered attempt named the message meanwhile: both were taken.
        this.logger.error({ messageId }, 'A message was taken twice by the provider (an unanswered attempt arrived)');
        return;
      }
      const ref = { accountId, providerMessageId: result.providerMessageId };
      await this.statuses.applyEarly(ref.accountId, ref.providerMessageId);
      await provider.afterStored(ref);
      return;
    }
    if (result.ok === 'later') {
      const next: SendMessageJobData = {
        messageId,
        resume: result.resume,
        attempt: result.reason === 'paced' ? data.attempt : data.attempt + 1,
        awaitingStatus: result.awaitingStatus,
      };
      await job.updateData(next);
      throw new DeferJob(
        result.delayMs,
        result.reason,
        result.awaitingStatus ? () => this.wakeIfNamed(messageId) : undefined,
      );
    }
    const error = result.providerError ?? { code: 0, title: result.message };
    await this.statuses.failUnsent(messageId, { code: error.code, title: error.title || result.message });
  }

  /** Runs the message's waiting job now if a status report has named the message already. */
  private async wakeIfNamed(messageId: string): Promise<void> {
    const message = await this.messages.findById(messageId);
    if (message?.providerMessageId) await this.jobs.promote(JobName.SendMessage, jobIdOf(messageId));
  }
}
