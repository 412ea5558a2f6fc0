import { Injectable, Logger } from '@nestjs/common';
import type { NoJobData } from '../../infra/queue/job-data';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { DeliveryStatusService } from './delivery-status.service';
import { Message } from './message.entity';
import { MessagesRepository } from './messages.repository';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { MessagingPlatforms } from './providers/messaging-platforms';
import { SendJobState, SendMessageJob } from './send-message.job';

declare module '../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SweepUnsentMessages]: NoJobData;
  }
}

const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 200;
/**
 * An unsent message is the sweeper's once it is this old: past the longest first attempt made in the request, even
 * at the settings' ceilings (pacing waits of WHATSAPP_SEND_INLINE_WAIT_MS, at most 10 s, then a Graph request of
 * WHATSAPP_REQUEST_TIMEOUT_MS, at most 60 s), and its enqueue.
 */
export const SEND_SWEEP_AFTER_MS = 120_000;
/** How many times one message's send is rebuilt; the next time it is found unsent it fails. */
export const SEND_SWEEPS_MAX = 3;

export type SweepAction = 'leave' | 'requeue' | 'fail';

/**
 * What the sweep does with one unsent message: a live job is left alone (it owns the send); a message whose request
 * was never kept cannot be rebuilt, and one rebuilt SEND_SWEEPS_MAX times already is past the bound: both fail;
 * anything else is queued again.
 */
export function sweepActionOf(message: Pick<Message, 'pendingSend' | 'sendSweeps'>, job: SendJobState): SweepAction {
  if (job === 'live') return 'leave';
  if (!message.pendingSend || message.sendSweeps >= SEND_SWEEPS_MAX) return 'fail';
  return 'requeue';
}

/**
 * The send queue rebuilt from PostgreSQL: the queue holds only what the `messages` rows can give again. Outbound
 * messages still `accepted` without a provider id SEND_SWEEP_AFTER_MS after they were stored, with no live send
 * job (the process died between storing and queueing, the enqueue failed, or the job spent its attempts on our
 * side), get their job again (same job id `send-<messageId>`) from the request kept on the row. An earlier attempt
 * may have reached the provider unanswered, so the rebuilt job first waits the provider's reconcile wait for a
 * status report naming the message: nothing is sent twice inside that window. Past the bound the message fails
 * (`message.failed`), as the job does when it gives up. One tick cluster-wide (scheduler role); each rebuild is
 * counted on the row under a condition, so two sweeps never queue the same message twice.
 */
@Injectable()
export class SendMessageSweepJob {
  private readonly logger = new Logger(SendMessageSweepJob.name);

  constructor(
    private readonly messages: MessagesRepository,
    private readonly accounts: MessagingAccountsRepository,
    private readonly platforms: MessagingPlatforms,
    private readonly statuses: DeliveryStatusService,
    private readonly sendQueue: SendMessageJob,
  ) {}

  @OnJob({ name: JobName.SweepUnsentMessages, schedule: { every: SWEEP_EVERY_MS } })
  async sweep(): Promise<{ requeued: number; failed: number }> {
    const unsent = await this.messages.unsentBefore(new Date(Date.now() - SEND_SWEEP_AFTER_MS), SWEEP_BATCH);
    const done = { requeued: 0, failed: 0 };
    for (const message of unsent) {
      const action = sweepActionOf(message, await this.sendQueue.jobOf(message.id));
      if (action === 'leave') continue;
      if (action === 'fail') {
        if (await this.fail(message)) done.failed += 1;
        continue;
      }
      const account = await this.accounts.find(message.accountId);
      if (!account) {
        await this.statuses.failUnsent(message.id, { code: 0, title: 'The messaging account no longer exists' });
        done.failed += 1;
        continue;
      }
      if (!(await this.messages.countSweep(message.id, message.sendSweeps))) continue;
      const waitMs = this.platforms.of(account).unansweredWaitMs;
      await this.sendQueue.requeue(message.id, message.pendingSend!, waitMs);
      this.logger.warn({ messageId: message.id, sweeps: message.sendSweeps + 1 }, 'Unsent message queued again');
      done.requeued += 1;
    }
    return done;
  }

  private fail(message: Message): Promise<boolean> {
    const title = message.pendingSend
      ? `The send could not be completed after ${SEND_SWEEPS_MAX} attempts to queue it again`
      : 'The send was interrupted before its request was kept, and cannot be rebuilt';
    return this.statuses.failUnsent(message.id, { code: 0, title });
  }
}
