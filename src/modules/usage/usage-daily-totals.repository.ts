import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UsageDailyTotal } from './entities/usage-daily-total.entity';

/** The reads of `usage_daily_totals` (the ledger's append writes them: MinuteLedgerRepository). */
@Injectable()
export class UsageDailyTotalsRepository {
  constructor(@InjectRepository(UsageDailyTotal) private readonly totals: Repository<UsageDailyTotal>) {}

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
