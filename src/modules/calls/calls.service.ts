import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { DoNotCallService } from '../do-not-call/do-not-call.service';
import { OutboxService } from '../outbox/outbox.service';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import { CallBilling } from '../usage/call-billing.port';
import { Call } from './call.entity';
import { CallReferences } from './call-references';
import { CallsRepository } from './calls.repository';
import { MissingRequiredVariableError, RenderedTooLongError, resolveCall } from './call-resolution';
import { selectColumns } from '../../infra/database/select-columns';
import { CALL_RESPONSE_COLUMNS, CallResponse } from './call.response';
import { CallDispatchQueue } from './dispatch/call-dispatch-queue';
import { CreateCallDto } from './dto/create-call.dto';
import { ListCallsQueryDto } from './dto/list-calls-query.dto';

const BLOCKED_MESSAGE = {
  OUTBOUND_MINUTES_EXHAUSTED: 'No billable outbound minute is available',
  OUTBOUND_PLAN_REQUIRED: 'An outbound plan is required to place calls',
} as const;

@Injectable()
export class CallsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly calls: CallsRepository,
    private readonly numbers: PhoneNumbersService,
    private readonly references: CallReferences,
    private readonly billing: CallBilling,
    private readonly outbox: OutboxService,
    private readonly dispatchQueue: CallDispatchQueue,
    private readonly cursors: CursorCodec,
    private readonly doNotCall: DoNotCallService,
  ) {}

  /**
   * Creates an outbound call with everything resolved (spec Calls rules 1-6), then enqueues its dispatch after
   * the commit; if that enqueue is lost, the sweeper finds the due call in PostgreSQL. A test-mode call
   * (`livemode` false) is free: it needs no plan and no minute, and runs on the simulator.
   */
  async create(organizationId: string, dto: CreateCallDto, livemode: boolean): Promise<Call> {
    const scheduledAt = dto.scheduledAt ? new Date(dto.scheduledAt) : null;
    if (scheduledAt && scheduledAt.getTime() <= Date.now()) {
      throw ApiError.validation('scheduledAt', 'scheduledAt must be in the future');
    }
    if (!(await this.numbers.findOwned(organizationId, dto.from))) {
      throw new ApiError('INVALID_PHONE', `from: ${dto.from} is not a phone number of this organization`);
    }
    const call = await this.dataSource.transaction(async (m) => {
      const refs = await this.references.load(m, organizationId, dto);
      // On the transaction's own connection: a request holding one connection while waiting for a second
      // deadlocks the pool once as many requests as connections arrive together (seen at 30 concurrent creates).
      const blocked = livemode ? await this.billing.outboundBlockedReasonIn(m, organizationId) : null;
      if (blocked) throw new ApiError(blocked, BLOCKED_MESSAGE[blocked]);
      if ((await this.doNotCall.listedAmong(m, organizationId, [dto.to])).size) {
        throw new ApiError('DO_NOT_CALL', `${dto.to} is on the do-not-call list`);
      }
      const saved = await this.insertResolved(m, organizationId, dto, refs, null, livemode);
      if (scheduledAt) await this.outbox.record(m, organizationId, 'call.scheduled', { ...CallResponse.from(saved) });
      return saved;
    });
    await this.dispatchQueue.enqueue(call.id, scheduledAt);
    return call;
  }

  /**
   * A dialer's call (campaigns, schedules, follow-ups; extension): resolved and inserted as `new` in the
   * dialer's transaction, carrying its campaign. The caller enqueues its dispatch after the commit (or leaves
   * it to the sweeper); admission, the do-not-call ledger and the minutes are checked at dispatch as for any call.
   */
  async insertForDialer(
    m: EntityManager,
    organizationId: string,
    dto: CreateCallDto,
    campaign: { id: string; livemode: boolean },
  ): Promise<Call> {
    const refs = await this.references.load(m, organizationId, dto);
    // A campaign's calls take its mode: a test key's campaign places test calls (README: test mode).
    return this.insertResolved(m, organizationId, dto, refs, campaign.id, campaign.livemode);
  }

  private async insertResolved(
    m: EntityManager,
    organizationId: string,
    dto: CreateCallDto,
    refs: Awaited<ReturnType<CallReferences['load']>>,
    campaignId: string | null,
    livemode: boolean,
  ): Promise<Call> {
    const scheduledAt = dto.scheduledAt ? new Date(dto.scheduledAt) : null;
    const resolved = this.resolve({ request: dto, ...refs });
    return this.calls.insert(m, {
      id: uuidv7(),
      organizationId,
      status: scheduledAt ? 'scheduled' : 'new',
      direction: 'outbound',
      callFrom: dto.from,
      callTo: dto.to,
      contactId: dto.contactId ?? null,
      caseId: dto.caseId ?? null,
      assistantConfigId: dto.assistantConfigId ?? null,
      campaignId,
      scheduledAt,
      livemode,
      ...resolved,
    });
  }

  private resolve(input: Parameters<typeof resolveCall>[0]) {
    try {
      return resolveCall(input);
    } catch (error) {
      if (error instanceof MissingRequiredVariableError) {
        throw ApiError.validation(`variableValues.${error.variable}`, error.message);
      }
      if (error instanceof RenderedTooLongError) throw ApiError.validation(error.field, error.message);
      throw error;
    }
  }

  /**
   * A live key lists live calls, a test key test calls (CONTRACTS §8: test data kept apart); the operator's
   * console (`'all'`) sees both.
   */
  list(organizationId: string, query: ListCallsQueryDto, livemode: boolean | 'all'): Promise<Page<CallResponse>> {
    const qb = this.calls
      .search(organizationId, query, livemode)
      .select(selectColumns<Call>('c', CALL_RESPONSE_COLUMNS));
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
      },
      map: CallResponse.from,
    });
  }

  /** A call's mode, which its public object does not show (README: test mode). */
  isLive(callId: string): Promise<boolean> {
    return this.calls.isLive(callId);
  }

  async get(organizationId: string, id: string): Promise<Call> {
    const call = await this.calls.findOwned(organizationId, id);
    if (!call) throw ApiError.notFound('Call');
    return call;
  }

  /**
   * Cancels a call that has not been claimed for dispatch. One conditional UPDATE decides the race with the
   * dispatcher's claim: whichever statement commits first wins, the other matches no row.
   */
  async cancel(organizationId: string, id: string): Promise<void> {
    const cancelled = await this.dataSource.transaction(async (m) => {
      const call = await this.calls.cancel(m, organizationId, id);
      if (!call) return null;
      await this.outbox.record(m, organizationId, 'call.cancelled', { ...CallResponse.from(call) });
      return call;
    });
    if (!cancelled) {
      const current = await this.get(organizationId, id);
      throw new ApiError(
        'INVALID_STATE',
        `Only new or scheduled calls can be cancelled; this call is ${current.status === 'lock-processing' ? 'being dispatched' : current.status}`,
      );
    }
    await this.dispatchQueue.remove(id);
  }
}
