import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { lockAdmission } from '../limits/call-admission';
import { AddDoNotCallCommand, DoNotCallListing } from './add-do-not-call.command';
import { DoNotCallEntry } from './do-not-call-entry.entity';
import { DoNotCallEntryResponse } from './do-not-call-entry.response';
import { DoNotCallRepository } from './do-not-call.repository';

/** The do-not-call ledger as the API and the dialers see it. */
@Injectable()
export class DoNotCallService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DoNotCallRepository,
    private readonly addCommand: AddDoNotCallCommand,
    private readonly cursors: CursorCodec,
  ) {}

  add(organizationId: string, listing: DoNotCallListing): Promise<{ entry: DoNotCallEntry; created: boolean }> {
    return this.dataSource.transaction((m) => this.addCommand.execute(m, organizationId, listing));
  }

  async remove(organizationId: string, number: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (m) => {
      await lockAdmission(m, organizationId);
      return this.repository.remove(m, organizationId, number, 'api');
    });
    if (!removed) throw ApiError.notFound('Do-not-call entry');
  }

  list(organizationId: string, query: PageQueryDto): Promise<Page<DoNotCallEntryResponse>> {
    return keysetPaginate(this.repository.activeQuery(organizationId), {
      alias: 'd',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.cursors,
      filters: {},
      map: DoNotCallEntryResponse.from,
    });
  }

  /** The numbers among these that must not be dialled; call it inside the transaction that decides the dial. */
  listedAmong(tx: EntityManager, organizationId: string, numbers: readonly string[]): Promise<Set<string>> {
    return this.repository.listedAmong(tx, organizationId, numbers);
  }
}
