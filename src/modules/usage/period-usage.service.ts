import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CALL_LEDGER_TYPES } from './entities/minute-ledger-entry.entity';
import { CurrentPeriodUsageResponse } from './usage-summary.response';

/** Usage rule 7: beyond this many billing rows in one period the totals cover the most recent ones only. */
export const USAGE_ROW_CAP = 10_000;
const DAY_MS = 86_400_000;

export interface Totals {
  calls: number;
  inboundCalls: number;
  talkMins: number;
  inboundMins: number;
  deductedMins: number;
}

const zero = (): Totals => ({ calls: 0, inboundCalls: 0, talkMins: 0, inboundMins: 0, deductedMins: 0 });
const add = (a: Totals, b: Totals): Totals => ({
  calls: a.calls + b.calls,
  inboundCalls: a.inboundCalls + b.inboundCalls,
  talkMins: a.talkMins + b.talkMins,
  inboundMins: a.inboundMins + b.inboundMins,
  deductedMins: a.deductedMins + b.deductedMins,
});

/**
 * Current-period call totals from the daily rollups: whole UTC days after the window's first day come from
 * `usage_daily_totals`, the first (partial) day from ledger rows. Walking newest first, the cap is applied
 * exactly: the day that crosses it is read row by row, newest first, up to the cap, so a truncated answer
 * covers precisely the most recent USAGE_ROW_CAP rows. Cost: one small rollup read plus at most one day of rows.
 */
@Injectable()
export class PeriodUsageService {
  constructor(private readonly dataSource: DataSource) {}

  async totals(organizationId: string, start: Date): Promise<CurrentPeriodUsageResponse> {
    const firstDayEnd = new Date(Math.floor(start.getTime() / DAY_MS) * DAY_MS + DAY_MS);
    const days: ({ day: string } & Totals)[] = (
      await this.dataSource.query(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins
           FROM usage_daily_totals WHERE organization_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
          ORDER BY day DESC`,
        [organizationId, firstDayEnd],
      )
    ).map((r: Record<string, unknown>) => ({
      day: String(r.day),
      calls: Number(r.calls),
      inboundCalls: Number(r.inbound_calls),
      talkMins: Number(r.talk_mins),
      inboundMins: Number(r.inbound_mins),
      deductedMins: Number(r.deducted_mins),
    }));
    let sum = zero();
    for (const day of days) {
      if (sum.calls + day.calls > USAGE_ROW_CAP) {
        const from = new Date(`${day.day}T00:00:00.000Z`);
        const rest = await this.rows(
          organizationId,
          from,
          new Date(from.getTime() + DAY_MS),
          USAGE_ROW_CAP - sum.calls,
        );
        return render(add(sum, rest.totals), true);
      }
      sum = add(sum, day);
    }
    const first = await this.rows(organizationId, start, firstDayEnd, USAGE_ROW_CAP - sum.calls);
    return render(add(sum, first.totals), first.more);
  }

  /** The newest `limit` call rows in [from, to), and whether more rows were left out. */
  private async rows(
    organizationId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<{ totals: Totals; more: boolean }> {
    const [r] = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE rn <= $4)::int AS calls,
              count(*) FILTER (WHERE rn <= $4 AND type = 'inbound_call')::int AS inbound_calls,
              coalesce(sum(duration_mins) FILTER (WHERE rn <= $4), 0)::float8 AS talk_mins,
              coalesce(sum(duration_mins) FILTER (WHERE rn <= $4 AND type = 'inbound_call'), 0)::float8 AS inbound_mins,
              coalesce(-sum(amount_mins) FILTER (WHERE rn <= $4), 0)::int AS deducted_mins,
              coalesce(bool_or(rn > $4), false) AS more
         FROM (SELECT type, duration_mins, amount_mins, row_number() OVER (ORDER BY created_at DESC, id DESC) AS rn
                 FROM (SELECT type, duration_mins, amount_mins, created_at, id FROM minute_ledger
                        WHERE organization_id = $1 AND type = ANY($5) AND created_at >= $2 AND created_at < $3
                        ORDER BY created_at DESC, id DESC LIMIT $4 + 1) capped) numbered`,
      [organizationId, from, to, limit, CALL_LEDGER_TYPES],
    );
    return {
      totals: {
        calls: Number(r.calls),
        inboundCalls: Number(r.inbound_calls),
        talkMins: Number(r.talk_mins),
        inboundMins: Number(r.inbound_mins),
        deductedMins: Number(r.deducted_mins),
      },
      more: r.more === true,
    };
  }
}

function render(t: Totals, truncated: boolean): CurrentPeriodUsageResponse {
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    totalMins: round(t.talkMins),
    deductedMins: t.deductedMins,
    totalCalls: t.calls,
    inbound: { calls: t.inboundCalls, mins: round(t.inboundMins) },
    outbound: { calls: t.calls - t.inboundCalls, mins: round(t.talkMins - t.inboundMins) },
    truncated,
  };
}
