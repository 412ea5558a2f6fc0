import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { UsageHistoryQueryDto } from './dto/usage-history-query.dto';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { UsageHistoryRowResponse } from './usage-history-row.response';
import { World } from '../../common/auth/world';

@Injectable()
export class UsageHistoryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: MinuteLedgerRepository,
    private readonly codec: CursorCodec,
  ) {}

  /**
   * The ledger is the live world's: test calls reserve and settle nothing, so the test world has no rows and a
   * test key's history is always empty (README: "Test and live").
   */
  list(world: World, query: UsageHistoryQueryDto): Promise<Page<UsageHistoryRowResponse>> {
    const { organizationId } = world;
    const qb = this.ledger.historyQuery(this.dataSource.manager, organizationId);
    if (!world.livemode) qb.andWhere('false');
    if (query.type) qb.andWhere('e.type = :type', { type: query.type });
    if (query.from) qb.andWhere('e.createdAt >= :from', { from: query.from });
    if (query.to) qb.andWhere('e.createdAt <= :to', { to: query.to });
    return keysetPaginate(qb, {
      alias: 'e',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      filters: {
        type: query.type,
        from: query.from?.toISOString(),
        to: query.to?.toISOString(),
      },
      map: UsageHistoryRowResponse.from,
    });
  }
}
