import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';

/** Writers remembered in-process at most; past it the memory starts over (the shared marks still answer). */
const MAX_REMEMBERED = 10_000;

/**
 * Read-your-writes across a replica: after a writer (an API key, or the admin) changes something, its reads go to
 * the primary for READ_AFTER_WRITE_MS. Remembered in this process (a Map) and for every other process in the
 * primary's `read_after_write_marks` (an UNLOGGED table keyed by writer), with the database's clock, so two API
 * instances behind a load balancer agree without Redis and whatever their clocks say. A mark is written valid for
 * 1.5 windows and rewritten only once less than a window is left: a burst of writes by one key costs one upsert
 * per half window, and every write still has at least a full window after it.
 */
@Injectable()
export class ReadAfterWrite {
  /** Per writer: until when this process sends its reads to the primary, and until when its shared mark holds. */
  private readonly local = new Map<string, { reads: number; shared: number }>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Records a write by `writer`; resolves once every process would send its reads to the primary. */
  async wrote(writer: string): Promise<void> {
    const window = this.config.readAfterWriteMs;
    if (window === 0) return;
    const now = Date.now();
    if (this.local.size > MAX_REMEMBERED) this.local.clear();
    const mark = this.local.get(writer) ?? { reads: 0, shared: 0 };
    mark.reads = now + window;
    this.local.set(writer, mark);
    if (mark.shared >= now + window) return;
    await this.dataSource.query(
      `INSERT INTO read_after_write_marks (writer, until) VALUES ($1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (writer) DO UPDATE SET until = GREATEST(read_after_write_marks.until, EXCLUDED.until)`,
      [writer, window * 1.5],
    );
    mark.shared = now + window * 1.5;
  }

  /** Whether `writer` wrote within the window (here or in any other process). */
  async wroteRecently(writer: string): Promise<boolean> {
    if (this.config.readAfterWriteMs === 0) return false;
    if ((this.local.get(writer)?.reads ?? 0) > Date.now()) return true;
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM read_after_write_marks WHERE writer = $1 AND until > now()',
      [writer],
    );
    return rows.length > 0;
  }
}
