import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { DatabaseUrls } from './database-urls';
import { DATABASE_URLS } from './database.tokens';
import { routeReads } from './read-scope';

/** How often the replica's replay lag is measured. */
export const REPLICA_CHECK_MS = 1000;
/** A lag measurement slower than this counts as the replica being unavailable. */
const CHECK_TIMEOUT_MS = 2000;

/** Why a GET request's reads went to the primary although a replica is configured. */
export type ReplicaFallback = 'read_after_write' | 'lagging' | 'unavailable' | 'query_failed';

/**
 * The read replica (DATABASE_READ_URL), when one is configured: routes reads (read-scope.ts), measures its replay
 * lag every REPLICA_CHECK_MS and says whether it may serve. The lag compares positions first: 0 when the replica
 * has replayed the primary's WAL position read just before (an idle primary is not a lagging replica); otherwise
 * the time since the replica's last replayed commit (`pg_last_xact_replay_timestamp`). Reading the primary's
 * position, not the replica's received one, also catches a replica that lost its connection to the primary.
 * A replica further behind than DATABASE_READ_MAX_LAG_MS, or that cannot answer, serves nothing until it can
 * again; the primary takes its reads.
 */
@Injectable()
export class ReplicaReads implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReplicaReads.name);
  private timer?: NodeJS.Timeout;
  private lagMs: number | null = null;
  private state: 'usable' | 'lagging' | 'unavailable' = 'unavailable';

  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
    @Inject(DATABASE_URLS) database: DatabaseUrls,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.configured = Boolean(database.read);
    if (this.configured) {
      routeReads(
        dataSource,
        () => this.state === 'usable',
        () => this.fallback('query_failed'),
      );
    }
  }

  readonly configured: boolean;

  async onApplicationBootstrap(): Promise<void> {
    if (!this.configured || !this.config.roles.has('api')) return;
    await this.check();
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Whether a request's reads may go to the replica now; if not, the reason is counted. */
  usable(): boolean {
    if (this.state === 'usable') return true;
    this.fallback(this.state);
    return false;
  }

  replicaRead(): void {
    this.metrics.replicaReads.inc();
  }

  fallback(reason: ReplicaFallback): void {
    this.metrics.replicaFallbacks.inc({ reason });
  }

  /** The last measured replay lag in milliseconds (null: the replica did not answer). */
  get lag(): number | null {
    return this.lagMs;
  }

  private async check(): Promise<void> {
    const runner = this.dataSource.createQueryRunner('slave');
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      });
      const [primary] = (await this.dataSource.query('SELECT pg_current_wal_lsn()::text AS lsn')) as Array<{
        lsn: string;
      }>;
      const [row] = (await Promise.race([
        runner.query(
          `SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn THEN 0
                       ELSE GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)
                  END::float8 AS lag_ms`,
          [primary.lsn],
        ),
        timeout,
      ])) as Array<{ lag_ms: number | null }>;
      this.lagMs = row.lag_ms ?? 0;
      this.metrics.replicaLag.set(this.lagMs / 1000);
      this.setState(this.lagMs > this.config.databaseReadMaxLagMs ? 'lagging' : 'usable');
    } catch (error) {
      this.lagMs = null;
      this.metrics.replicaLag.set(-1);
      if (this.state !== 'unavailable') this.logger.warn(`Read replica unavailable: ${(error as Error).message}`);
      this.setState('unavailable');
    } finally {
      clearTimeout(timer);
      await runner.release().catch(() => undefined);
    }
  }

  private setState(next: ReplicaReads['state']): void {
    if (next !== this.state && next !== 'unavailable') this.logger.log(`Read replica ${next}`);
    this.state = next;
  }
}
