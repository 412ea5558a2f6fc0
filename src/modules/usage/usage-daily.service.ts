import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UsageDailyTotal } from './entities/usage-daily-total.entity';

export interface DailyUsage {
  day: string;
  calls: number;
  talkMins: number;
  deductedMins: number;
}

/** Minutes per UTC day from the daily totals the ledger keeps (the console's usage chart). */
@Injectable()
export class UsageDailyService {
  constructor(@InjectRepository(UsageDailyTotal) private readonly totals: Repository<UsageDailyTotal>) {}

  async byDay(organizationId: string, from: Date, to: Date): Promise<DailyUsage[]> {
    const rows = await this.totals
      .createQueryBuilder('t')
      .where('t.organizationId = :organizationId AND t.day BETWEEN :from AND :to', {
        organizationId,
        from: from.toISOString().slice(0, 10),
        to: to.toISOString().slice(0, 10),
      })
      .orderBy('t.day', 'ASC')
      .getMany();
    return rows.map((r) => ({
      day: String(r.day),
      calls: r.calls + r.inboundCalls,
      talkMins: r.talkMins + r.inboundMins,
      deductedMins: r.deductedMins,
    }));
  }
}
