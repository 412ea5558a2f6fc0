import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { firstInLine } from '../../infra/database/first-in-line';
import { OUTBOX_CHANNEL } from './outbox-events.repository';
import { ThrottledSignal } from '../../common/concurrency/throttled-signal';

/**
 * At most one NOTIFY per this many ms per process. A NOTIFY in a transaction takes a lock for the whole cluster at
 * commit and holds it through the commit's WAL flush, so one in every write's transaction put all writes' commits
 * in one line (BENCHMARKS.md); one per interval, sent on its own, costs one such commit per interval instead.
 */
export const OUTBOX_WAKE_INTERVAL_MS = 10;

/**
 * Wakes a relay once a transaction that recorded events has committed, never inside it. A process that runs a
 * relay (the worker role) kicks its own, which drains every process's rows; any other process NOTIFYs, throttled
 * (OUTBOX_WAKE_INTERVAL_MS), and every relay LISTENing hears it. A wake-up that is lost (the process dies before
 * sending it, no relay listening then) only leaves the rows to the relay's poll.
 */
@Injectable()
export class OutboxWakeup implements BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxWakeup.name);
  private readonly notify: ThrottledSignal;
  private relayHere?: () => void;

  constructor(dataSource: DataSource) {
    // First in the pool's line: a wake-up never waits behind the requests whose events it is for.
    this.notify = new ThrottledSignal(
      OUTBOX_WAKE_INTERVAL_MS,
      () => firstInLine(() => dataSource.query(`NOTIFY ${OUTBOX_CHANNEL}`)),
      (err) => this.logger.warn(`Outbox wake-up not sent, the relay's poll will pick the events up: ${err.message}`),
    );
  }

  /** Events have committed: a relay should look. Bound, so it can be handed to `afterCommit` as it is. */
  readonly committed = (): void => {
    if (this.relayHere) this.relayHere();
    else this.notify.request();
  };

  /** The relay of this process, from its start to its stop (undefined): wake-ups go to it instead of a NOTIFY. */
  relayIn(kick: (() => void) | undefined): void {
    this.relayHere = kick;
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.notify.stop();
  }
}
