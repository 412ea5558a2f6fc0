import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { OutboxService } from '../outbox/outbox.service';
import { CallBilling } from '../usage/call-billing.port';
import { Call } from './call.entity';
import { CallListFilters, CallsRepository } from './calls.repository';
import { selectColumns } from '../../infra/database/select-columns';
import { CALL_RESPONSE_COLUMNS, CallResponse } from './call.response';
import { CallDispatchQueue } from './dispatch/call-dispatch-queue';
import { ListCallsQueryDto } from './dto/list-calls-query.dto';
import { inTransaction } from '../../infra/database/tx';

/** The calls API's reads and its cancel; creating a call is CreateCallCommand. */
@Injectable()
export class CallsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly calls: CallsRepository,
    private readonly outbox: OutboxService,
    private readonly dispatchQueue: CallDispatchQueue,
    private readonly cursors: CursorCodec,
    private readonly billing: CallBilling,
  ) {}

  list(world: World, query: ListCallsQueryDto & CallListFilters): Promise<Page<CallResponse>> {
    const qb = this.calls.search(world, query).select(selectColumns<Call>('c', CALL_RESPONSE_COLUMNS));
    return keysetPaginate(qb, {
      alias: 'c',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.cursors,
      filters: {
        status: query.status,
        contactId: query.contactId,
        caseId: query.caseId,
        from: query.from,
        to: query.to,
        number: query.number,
      },
      map: CallResponse.from,
    });
  }

  async get(world: World, id: string): Promise<Call> {
    const call = await this.calls.findOwned(world, id);
    if (!call) throw ApiError.notFound('Call');
    return call;
  }

  /**
   * Cancels a call that has not been claimed for dispatch. One conditional UPDATE decides the race with the
   * dispatcher's claim: whichever statement commits first wins, the other matches no row.
   */
  async cancel(world: World, id: string): Promise<void> {
    const cancelled = await inTransaction(this.dataSource, async (m) => {
      const call = await this.calls.cancel(m, world, id);
      if (!call) return null;
      await this.outbox.record(m, call, 'call.cancelled', { callId: call.id });
      return call;
    });
    if (!cancelled) {
      const current = await this.get(world, id);
      throw new ApiError(
        'INVALID_STATE',
        `Only new or scheduled calls can be cancelled; this call is ${current.status === 'lock-processing' ? 'being dispatched' : current.status}`,
      );
    }
    await this.dispatchQueue.remove(id);
    if (cancelled.retryAt) await this.billing.releaseDeferred(world.organizationId, id);
  }
}
