import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CallTotals } from './call-totals';
import { UsageDailyTotal } from './entities/usage-daily-total.entity';

/** The reads of `usage_daily_totals` (the ledger's append writes them: MinuteLedgerRepository). */
@Injectable()
export class UsageDailyTotalsRepository {
  constructor(@InjectRepository(UsageDailyTotal) private readonly totals: Repository<UsageDailyTotal>) {}

  /** The organization's whole UTC days from the one holding `from` on, newest first. */
  async daysFrom(organizationId: string, from: Date): Promise<Array<{ day: string } & CallTotals>> {
    const rows: Array<Record<string, unknown>> = await this.totals.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, calls, inbound_calls, talk_mins, inbound_mins, deducted_mins
         FROM usage_daily_totals WHERE organization_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
        ORDER BY day DESC`,
      [organizationId, from],
    );
    return rows.map((r) => ({
      day: String(r.day),
      calls: Number(r.calls),
      inboundCalls: Number(r.inbound_calls),
      talkMins: Number(r.talk_mins),
      inboundMins: Number(r.inbound_mins),
      deductedMins: Number(r.deducted_mins),
    }));
  }

  /** The organization's days from `from` to `to` (UTC dates, inclusive), oldest first. */
  between(organizationId: string, from: Date, to: Date): Promise<UsageDailyTotal[]> {
    return this.totals
      .createQueryBuilder('t')
      .where('t.organizationId = :organizationId AND t.day BETWEEN :from AND :to', {
        organizationId,
        from: from.toISOString().slice(0, 10),
        to: to.toISOString().slice(0, 10),
      })
      .orderBy('t.day', 'ASC')
      .getMany();
  }
}
