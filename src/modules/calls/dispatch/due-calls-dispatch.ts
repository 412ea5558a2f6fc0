import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { QUEUE_CONCURRENCY, QueueName } from '../../../infra/queue/queue-names';
import { CallDispatchQueue } from './call-dispatch-queue';
import { CallDispatcherJob } from './call-dispatcher.job';

/**
 * Calls due now that this process has just committed (a campaign step's): each gets its dispatch job, the durable
 * way that any worker runs (and the sweeper repairs), and a worker process also dispatches them here at once,
 * beside their jobs. The claim (`new|scheduled -> lock-processing`, one conditional statement) lets only one of
 * the two place a call; the other finds it claimed and does nothing. The job's way through the queue store to a
 * worker was most of the time from a campaign's step to its calls' dispatch (`npm run bench campaign`).
 * At most as many run here at once as the dispatch queue's workers (IN_PROCESS_LIMIT): past that, a call waits for
 * its job, so a large step cannot open more dispatches in a process than the queue would.
 */
const IN_PROCESS_LIMIT = QUEUE_CONCURRENCY[QueueName.CallDispatch];

@Injectable()
export class DueCallsDispatch implements BeforeApplicationShutdown {
  private readonly logger = new Logger(DueCallsDispatch.name);
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly queue: CallDispatchQueue,
    private readonly dispatcher: CallDispatcherJob,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Resolves once the jobs are queued; the dispatches started here go on by themselves. */
  async dispatch(callIds: readonly string[]): Promise<void> {
    if (!callIds.length) return;
    if (this.config.roles.has('worker') && !this.stopped) {
      for (const callId of callIds.slice(0, Math.max(0, IN_PROCESS_LIMIT - this.running.size))) this.start(callId);
    }
    await this.queue.enqueueDue(callIds);
  }

  /** Dispatches started here finish before the database pool closes; from now on the jobs alone dispatch. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running]);
  }

  private start(callId: string): void {
    const run = this.dispatcher
      .dispatch({ callId })
      .catch((error: unknown) =>
        this.logger.warn({ callId, err: (error as Error).message }, 'Dispatch failed; its job or the sweeper retries'),
      )
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }
}
