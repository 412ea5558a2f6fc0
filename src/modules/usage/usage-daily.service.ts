import { Injectable } from '@nestjs/common';
import { UsageDailyTotalsRepository } from './usage-daily-totals.repository';

export interface DailyUsage {
  day: string;
  calls: number;
  talkMins: number;
  deductedMins: number;
}

/** Minutes per UTC day from the daily totals the ledger keeps (the console's usage chart). */
@Injectable()
export class UsageDailyService {
  constructor(private readonly totals: UsageDailyTotalsRepository) {}

  async byDay(organizationId: string, from: Date, to: Date): Promise<DailyUsage[]> {
    const rows = await this.totals.between(organizationId, from, to);
    return rows.map((r) => ({
      day: String(r.day),
      calls: r.calls + r.inboundCalls,
      talkMins: r.talkMins + r.inboundMins,
      deductedMins: r.deductedMins,
    }));
  }
}
