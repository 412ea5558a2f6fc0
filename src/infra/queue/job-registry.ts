import { getQueueToken } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef } from '@nestjs/core';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { DeferJob } from './defer-job';
import { ON_JOB_KEY, OnJobOptions } from './on-job.decorator';
import { JOB_QUEUE, JobName, QUEUE_CONCURRENCY, QueueName } from './queue-names';
import { QUEUE_CONNECTION } from './queue.tokens';
import { QueueConnection, prefixOf } from './queue-connection';

type Handler = (data: unknown, job: Job) => Promise<unknown>;

/** The states of a job that will still run (a next run in any other state never fires). */
const FIRING_STATES = new Set(['delayed', 'waiting', 'prioritized', 'active', 'waiting-children']);

/** How often the scheduler role checks that its job schedulers still exist (a Redis restarted empty loses them). */
export const SCHEDULE_CHECK_MS = 5000;

interface Registered {
  options: OnJobOptions;
  handler: Handler;
  owner: string;
}

/**
 * Finds every `@OnJob` handler at start-up, insists that each job name has exactly one, and then, by role:
 * the worker role runs one BullMQ Worker per queue dispatching by job name; the scheduler role registers the
 * cluster-wide job schedulers (BullMQ keeps one schedule per id however many processes upsert it).
 */
@Injectable()
export class JobRegistry implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRegistry.name);
  private readonly handlers = new Map<JobName, Registered>();
  private readonly workers: Worker[] = [];
  private scheduleCheck?: NodeJS.Timeout;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QUEUE_CONNECTION) private readonly connection: QueueConnection,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.discover();
    this.logQueueErrors();
    if (this.config.roles.has('worker')) this.startWorkers();
    if (this.config.roles.has('scheduler')) {
      await this.registerSchedules();
      // The schedules live in the queue store. A Redis that restarts without its data forgets them, and with
      // them the sweepers that repair everything else; so they are put back as soon as they are found missing.
      this.scheduleCheck = setInterval(() => void this.restoreMissingSchedules(), SCHEDULE_CHECK_MS);
    }
  }

  /**
   * Before any module shuts down (the database pool in particular): close() waits for jobs in progress, so a
   * deploy never cuts a dispatch or a delivery in half, and no job runs against a closed pool.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.scheduleCheck) clearInterval(this.scheduleCheck);
    await Promise.all(this.workers.map((w) => w.close()));
  }

  private discover(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const options = Reflect.getMetadata(ON_JOB_KEY, prototype[method]) as OnJobOptions | undefined;
        if (!options) continue;
        const owner = `${wrapper.name}.${method}`;
        const existing = this.handlers.get(options.name);
        if (existing) throw new Error(`Job ${options.name} has two handlers: ${existing.owner} and ${owner}`);
        const fn = instance[method] as Handler;
        this.handlers.set(options.name, { options, handler: fn.bind(instance), owner });
      }
    }
    const missing = Object.values(JobName).filter((name) => !this.handlers.has(name));
    if (missing.length) throw new Error(`Jobs without a handler: ${missing.join(', ')}`);
  }

  /**
   * A queue's connection errors (Redis unreachable) are emitted as events; without a listener BullMQ prints each
   * one with console.error, outside the JSON log. The requests that needed the queue answer 503 on their own.
   */
  private logQueueErrors(): void {
    for (const name of Object.values(QueueName)) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      queue.on('error', (err) => this.logger.warn({ queue: name, err: err.message }, 'Queue connection error'));
    }
  }

  private startWorkers(): void {
    const queues = new Set(Object.values(JOB_QUEUE));
    for (const queueName of queues) {
      const worker = new Worker(queueName, (job, token) => this.run(job, token), {
        connection: this.connection.connection,
        prefix: prefixOf(this.connection, queueName),
        concurrency: QUEUE_CONCURRENCY[queueName],
        lockDuration: this.config.queueLocks.lockDurationMs,
        stalledInterval: this.config.queueLocks.stalledIntervalMs,
      } as never);
      worker.on('failed', (job, err) =>
        this.logger.warn({ queue: queueName, job: job?.name, jobId: job?.id, err: err.message }, 'Job failed'),
      );
      worker.on('error', (err) => this.logger.error({ queue: queueName, err: err.message }, 'Worker error'));
      this.workers.push(worker);
    }
    this.logger.log(`Workers running for ${[...queues].join(', ')} on ${this.connection.kind}`);
  }

  private async run(job: Job, token?: string): Promise<unknown> {
    const registered = this.handlers.get(job.name as JobName);
    if (!registered) throw new Error(`No handler for job ${job.name}`);
    const done = this.metrics.jobDuration.startTimer({ queue: job.queueName, job: job.name });
    try {
      const result = await registered.handler(job.data, job);
      done({ outcome: 'completed' });
      return result;
    } catch (error) {
      if (error instanceof DeferJob) {
        // Back to the delayed set under its own id; DelayedError tells BullMQ the job was moved, not failed.
        await job.moveToDelayed(Date.now() + error.delayMs, token);
        done({ outcome: 'deferred' });
        const afterParked = error.afterParked;
        if (afterParked) {
          // Once BullMQ has let go of the job (DelayedError is the last it does with it).
          setImmediate(() =>
            afterParked().catch((err: unknown) =>
              this.logger.debug({ job: job.name, err: (err as Error).message }, 'Parked job re-check failed'),
            ),
          );
        }
        throw new DelayedError();
      }
      done({ outcome: 'failed' });
      throw error;
    }
  }

  /**
   * Registers each scheduled job unless the queue store already holds it with the same timing. Upserting an
   * unchanged scheduler is not free: it replaces the pending tick with a new one anchored at "now", so a
   * scheduler replica starting (or restarting) between two ticks would fire an extra tick. A changed interval or
   * pattern (a new release) is upserted.
   */
  private async registerSchedules(restoring = false): Promise<void> {
    for (const [name, { options }] of this.handlers) {
      const schedule = options.schedule;
      if (!schedule) continue;
      const queue = this.moduleRef.get<Queue>(getQueueToken(JOB_QUEUE[name]), { strict: false });
      const existing = await queue.getJobScheduler(name);
      const unchanged = existing && existing.every === schedule.every && existing.pattern === schedule.pattern;
      if (unchanged && (await this.hasNextRun(queue, name, existing.next))) continue;
      if (restoring) {
        const lost = existing ? 'lost its next run' : 'missing from the queue store';
        this.logger.warn({ job: name }, `Job scheduler ${lost}; registered again`);
      }
      await queue.upsertJobScheduler(name, schedule, {
        name,
        opts: { removeOnComplete: 100, removeOnFail: 100 },
      });
    }
  }

  /**
   * Whether the scheduler's next run is still in the queue store, where it will fire. A scheduler only fires
   * through that job, so one whose job was lost (a failover that dropped the last writes, a partial flush) would
   * never fire again while its record looks healthy. The job's record alone is not enough: a flush that is not
   * atomic can take the delayed set and leave the record, whose state is then `unknown`.
   */
  private async hasNextRun(queue: Queue, name: string, next: number | null | undefined): Promise<boolean> {
    if (next == null) return false;
    const job = await queue.getJob(`repeat:${name}:${next}`);
    return job !== undefined && FIRING_STATES.has(await job.getState());
  }

  private async restoreMissingSchedules(): Promise<void> {
    try {
      await this.registerSchedules(true);
    } catch (error) {
      // The queue store is unreachable right now; the next check tries again.
      this.logger.debug({ err: (error as Error).message }, 'Job scheduler check failed');
    }
  }
}
