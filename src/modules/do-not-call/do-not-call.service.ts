import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { lockAdmission } from '../limits/call-admission';
import { AddDoNotCallCommand, DoNotCallListing } from './add-do-not-call.command';
import { DoNotCallEntry, DoNotCallSource } from './do-not-call-entry.entity';
import { DoNotCallEntryResponse } from './do-not-call-entry.response';
import { DoNotCallRepository } from './do-not-call.repository';
import { AddDoNotCallDto } from './dto/add-do-not-call.dto';
import { World } from '../../common/auth/world';
import { inTransaction } from '../../infra/database/tx';

/** The do-not-call ledger as the API and the dialers see it. */
@Injectable()
export class DoNotCallService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DoNotCallRepository,
    private readonly addCommand: AddDoNotCallCommand,
    private readonly cursors: CursorCodec,
  ) {}

  add(world: World, listing: DoNotCallListing): Promise<{ entry: DoNotCallEntry; created: boolean }> {
    return inTransaction(this.dataSource, (m) => this.addCommand.execute(m, world, listing));
  }

  /** A listing asked for over HTTP (the API or the console): its response and status, 201 new or 200 already listed. */
  async addRequested(
    world: World,
    dto: AddDoNotCallDto,
    source: DoNotCallSource,
  ): Promise<{ status: 200 | 201; data: DoNotCallEntryResponse }> {
    const { entry, created } = await this.add(world, { number: dto.number, reason: dto.reason ?? null, source });
    return { status: created ? 201 : 200, data: DoNotCallEntryResponse.from(entry) };
  }

  /** Lifts the number's listing; `by` is kept as who lifted it (the API or the console). */
  async remove(world: World, number: string, by: DoNotCallSource = 'api'): Promise<void> {
    const removed = await inTransaction(this.dataSource, async (m) => {
      await lockAdmission(m, world.organizationId);
      return this.repository.remove(m, world, number, by);
    });
    if (!removed) throw ApiError.notFound('Do-not-call entry');
  }

  /** The number's active listing in the world's ledger. */
  async get(world: World, number: string): Promise<DoNotCallEntry> {
    const entry = await this.repository.activeQuery(world).andWhere('d.number = :number', { number }).getOne();
    if (!entry) throw ApiError.notFound('Do-not-call entry');
    return entry;
  }

  list(world: World, query: PageQueryDto): Promise<Page<DoNotCallEntryResponse>> {
    return keysetPaginate(this.repository.activeQuery(world), {
      alias: 'd',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.cursors,
      filters: {},
      map: DoNotCallEntryResponse.from,
    });
  }

  /** The numbers among these that must not be dialled; call it inside the transaction that decides the dial. */
  listedAmong(tx: EntityManager, world: World, numbers: readonly string[]): Promise<Set<string>> {
    return this.repository.listedAmong(tx, world, numbers);
  }
}
