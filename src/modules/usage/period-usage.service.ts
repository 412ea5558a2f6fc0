import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CallTotals } from './call-totals';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { UsageDailyTotalsRepository } from './usage-daily-totals.repository';
import { CurrentPeriodUsageResponse } from './usage-summary.response';

/** docs/contracts/conventions.md, "Usage summary": beyond this many billing rows in one period the totals cover the most recent ones only. */
export const USAGE_ROW_CAP = 10_000;
const DAY_MS = 86_400_000;

const zero = (): CallTotals => ({ calls: 0, inboundCalls: 0, talkMins: 0, inboundMins: 0, deductedMins: 0 });
const add = (a: CallTotals, b: CallTotals): CallTotals => ({
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
  constructor(
    private readonly dataSource: DataSource,
    private readonly dailyTotals: UsageDailyTotalsRepository,
    private readonly ledger: MinuteLedgerRepository,
  ) {}

  async totals(organizationId: string, start: Date): Promise<CurrentPeriodUsageResponse> {
    const firstDayEnd = new Date(Math.floor(start.getTime() / DAY_MS) * DAY_MS + DAY_MS);
    const days = await this.dailyTotals.daysFrom(organizationId, firstDayEnd);
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
  private rows(
    organizationId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<{ totals: CallTotals; more: boolean }> {
    return this.ledger.callTotals(this.dataSource.manager, organizationId, from, to, limit);
  }
}

function render(t: CallTotals, truncated: boolean): CurrentPeriodUsageResponse {
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
