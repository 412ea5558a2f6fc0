import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { DataSource } from 'typeorm';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { DatabaseUrls } from '../../infra/database/database-urls';
import { DATABASE_URLS } from '../../infra/database/database.tokens';
import { firstInLine } from '../../infra/database/first-in-line';
import { JobQueue } from '../../infra/queue/job-queue';
import { JobName } from '../../infra/queue/queue-names';
import { domainEventJob } from './domain-event-job';
import { OUTBOX_CHANNEL, OutboxEventsRepository } from './outbox-events.repository';
import { OutboxWakeup } from './outbox-wakeup';
import { inTransaction } from '../../infra/database/tx';

const BATCH = 500;

/**
 * Moves committed outbox rows onto the domain-events queue (worker role). Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so any number of relays share the work; each is enqueued with its event id as
 * the job id, so a relay that dies after enqueueing but before marking re-enqueues a duplicate that the queue
 * ignores (or, once the first job has finished and left the queue, that finds the event processed and does
 * nothing). Requests never wait for it: they only insert a row.
 *
 * Woken after the events' commit (outbox-wakeup.ts): by its own process directly, by other processes through a
 * NOTIFY; the poll every OUTBOX_POLL_MS is the floor. LISTEN needs a session of its own, so it uses the direct URL
 * (a transaction-pooling PgBouncer would hand the subscription's server connection to other clients); when that
 * connection cannot be had, the relay only polls and says so once.
 */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelayService.name);
  private listener?: Client;
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly events: OutboxEventsRepository,
    private readonly wakeup: OutboxWakeup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_URLS) private readonly database: DatabaseUrls,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.roles.has('worker')) return;
    this.timer = setInterval(() => this.kick(), this.config.outboxPollMs);
    // Bound to the relay's own async context: a drain kicked from a request must not carry that request's context
    // (its log fields, its read scope) through every batch it then relays.
    this.wakeup.relayIn(AsyncResource.bind(() => this.kick()));
    await this.listen();
    this.kick();
  }

  /** Subscribes to the outbox channel; on failure the relay keeps polling (nothing is lost, only slower). */
  private async listen(): Promise<void> {
    const listener = new Client({ connectionString: this.database.direct, application_name: 'outbox-relay' });
    listener.on('notification', () => this.kick());
    // A lost LISTEN connection only slows the relay down to the poll interval; it never loses events.
    listener.on('error', (err) => this.logger.warn(`LISTEN connection lost: ${err.message}`));
    try {
      await listener.connect();
      await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = listener;
    } catch (err) {
      this.logger.warn(`LISTEN unavailable, relaying every ${this.config.outboxPollMs} ms: ${(err as Error).message}`);
      await listener.end().catch(() => undefined);
    }
  }

  /** Stops relaying before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wakeup.relayIn(undefined);
    if (this.timer) clearInterval(this.timer);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
  }

  /** Starts a drain, or asks the running one to go round again, so bursts coalesce into few transactions. */
  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    // Every event's way to its webhooks starts here, one transaction at a time: it goes to the head of the pool's
    // line (first-in-line.ts), so a relay never waits behind the requests whose events it carries.
    this.draining = firstInLine(() => this.drain()).finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.relayBatch()) === BATCH);
    } catch (err) {
      this.logger.warn(`Relay failed, will retry: ${(err as Error).message}`);
    }
  }

  /**
   * Relays one batch and returns how many rows it moved. `afterEnqueue` runs between enqueue and commit; tests
   * use it to kill the relay at the worst moment.
   */
  async relayBatch(afterEnqueue?: () => void): Promise<number> {
    return inTransaction(this.dataSource, async (tx) => {
      // Never the payload: a batch is 500 small references whatever the events hold, so its size is bounded too.
      const rows = await this.events.claimUnrelayed(tx, BATCH);
      if (!rows.length) return 0;
      await this.jobs.addBulk(JobName.DomainEvent, rows.map(domainEventJob));
      afterEnqueue?.();
      await this.events.markRelayed(
        tx,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
  }
}
