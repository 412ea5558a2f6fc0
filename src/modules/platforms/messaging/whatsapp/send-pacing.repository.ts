import { Injectable } from '@nestjs/common';
import { Tx } from '../../../../infra/database/tx';

/** One pacing rule: at most one send per `intervalMs` on average, `burst` of them back to back. */
export interface PaceRule {
  key: string;
  intervalMs: number;
  burst: number;
}

/** How long a key's row outlives its last send: past it the row says nothing (any send may go) and is pruned. */
const STALE_AFTER = '1 hour';

/**
 * The SQL of `send_pacing`: a generic cell rate algorithm per key, in PostgreSQL so that every process shares it
 * (the queue may run on PostgreSQL alone, and these limits must hold across API and worker processes alike).
 * A key's `tat` is its theoretical arrival time: a send may go when `tat - (burst - 1) * interval <= now`, and
 * going moves `tat` to `max(tat, now) + interval`. Nothing is reserved for a send that must wait, so a waiting
 * send never holds up others.
 */
@Injectable()
export class SendPacingRepository {
  /**
   * Takes a slot under every rule at once, or none: 0 when taken, otherwise the milliseconds until all of them
   * allow a send. Rows are locked in key order, so two reservations sharing keys never deadlock.
   */
  async take(tx: Tx, rules: PaceRule[]): Promise<number> {
    const sorted = [...rules].sort((a, b) => (a.key < b.key ? -1 : 1));
    const keys = sorted.map((r) => r.key);
    await tx.query(
      `INSERT INTO send_pacing (key, tat) SELECT k, 'epoch' FROM unnest($1::text[]) AS k ORDER BY k
       ON CONFLICT (key) DO NOTHING`,
      [keys],
    );
    const rows: Array<{ key: string; tat_ms: string | null; now_ms: string }> = await tx.query(
      `SELECT key, floor(extract(epoch FROM tat) * 1000)::text AS tat_ms,
              floor(extract(epoch FROM clock_timestamp()) * 1000)::text AS now_ms
         FROM send_pacing WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE`,
      [keys],
    );
    const now = Number(rows[0].now_ms);
    const tatOf = (key: string) => {
      const tat = Number(rows.find((r) => r.key === key)?.tat_ms);
      return Number.isFinite(tat) ? tat : -Infinity;
    };
    const wait = Math.max(0, ...sorted.map((r) => tatOf(r.key) - (r.burst - 1) * r.intervalMs - now));
    if (wait > 0) return Math.ceil(wait);
    for (const rule of sorted) {
      await tx.query(`UPDATE send_pacing SET tat = to_timestamp($2::double precision / 1000) WHERE key = $1`, [
        rule.key,
        Math.max(tatOf(rule.key), now) + rule.intervalMs,
      ]);
    }
    return 0;
  }

  /** Removes the rows no send is paced by any more (their time long past). */
  async prune(tx: Tx): Promise<void> {
    await tx.query(`DELETE FROM send_pacing WHERE tat < now() - interval '${STALE_AFTER}'`);
  }
}
