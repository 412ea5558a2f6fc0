import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { QUEUE_CONCURRENCY, QueueName } from '../../../infra/queue/queue-names';
import { CallDispatchQueue } from './call-dispatch-queue';
import { CallDispatcherJob } from './call-dispatcher.job';

/**
 * Calls due now that this process has just committed (a campaign step's). A worker process dispatches them here at
 * once; the others get their dispatch job, the durable way that any worker runs. The job's way through the queue
 * store to a worker was most of the time from a campaign's step to its calls' dispatch (`npm run bench campaign`),
 * and a call dispatched here needs no job as well: the job only found the call claimed, at a queue job and a claim
 * statement per call. A call started here that never gets claimed (the process died first, or its claim failed)
 * is a due call without a job, which the sweeper enqueues after its grace (CallSweeperJob), as it does for any
 * lost enqueue; once claimed, a call is the dispatch's, and a dispatch that dies leaves a stale claim the sweeper
 * releases, with or without a job.
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

  /** Resolves once the jobs of the calls not started here are queued; the dispatches started here go on by themselves. */
  async dispatch(callIds: readonly string[]): Promise<void> {
    const room = this.config.roles.has('worker') && !this.stopped ? IN_PROCESS_LIMIT - this.running.size : 0;
    const here = callIds.slice(0, Math.max(0, room));
    for (const callId of here) this.start(callId);
    await this.queue.enqueueDue(callIds.slice(here.length));
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
        this.logger.warn({ callId, err: (error as Error).message }, 'Dispatch failed; the sweeper retries'),
      )
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }
}
