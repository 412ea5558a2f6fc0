import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { OutboxService } from '../outbox/outbox.service';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import { CallBilling } from '../usage/call-billing.port';
import { Call } from './call.entity';
import { CallReferences } from './call-references';
import { MissingRequiredVariableError, resolveCall } from './call-resolution';
import { CallResponse } from './call.response';
import { callRows } from './call-rows';
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
    @InjectRepository(Call) private readonly calls: Repository<Call>,
    private readonly numbers: PhoneNumbersService,
    private readonly references: CallReferences,
    private readonly billing: CallBilling,
    private readonly outbox: OutboxService,
    private readonly dispatchQueue: CallDispatchQueue,
    private readonly cursors: CursorCodec,
  ) {}

  /**
   * Creates an outbound call with everything resolved (spec Calls rules 1-6), then enqueues its dispatch after
   * the commit; if that enqueue is lost, the sweeper finds the due call in PostgreSQL.
   */
  async create(organizationId: string, dto: CreateCallDto): Promise<Call> {
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
      const blocked = await this.billing.outboundBlockedReason(organizationId, m);
      if (blocked) throw new ApiError(blocked, BLOCKED_MESSAGE[blocked]);
      const resolved = this.resolve({ request: dto, ...refs });
      const created = m.create(Call, {
        id: uuidv7(),
        organizationId,
        status: scheduledAt ? 'scheduled' : 'new',
        direction: 'outbound',
        callFrom: dto.from,
        callTo: dto.to,
        contactId: dto.contactId ?? null,
        caseId: dto.caseId ?? null,
        assistantConfigId: dto.assistantConfigId ?? null,
        scheduledAt,
        ...resolved,
      });
      await m.insert(Call, created);
      const saved = await m.findOneByOrFail(Call, { id: created.id });
      if (scheduledAt) await this.outbox.record(m, organizationId, 'call.scheduled', { ...CallResponse.from(saved) });
      return saved;
    });
    await this.dispatchQueue.enqueue(call.id, scheduledAt);
    return call;
  }

  private resolve(input: Parameters<typeof resolveCall>[0]) {
    try {
      return resolveCall(input);
    } catch (error) {
      if (error instanceof MissingRequiredVariableError) {
        throw ApiError.validation(`variableValues.${error.variable}`, error.message);
      }
      throw error;
    }
  }

  list(organizationId: string, query: ListCallsQueryDto): Promise<Page<CallResponse>> {
    const qb = this.calls.createQueryBuilder('c').where('c.organizationId = :organizationId', { organizationId });
    if (query.status) {
      // lock-processing reads as new/scheduled (see publicStatus), so the filters follow the same rule.
      if (query.status === 'new')
        qb.andWhere(`(c.status = 'new' OR (c.status = 'lock-processing' AND c.scheduledAt IS NULL))`);
      else if (query.status === 'scheduled') {
        qb.andWhere(`(c.status = 'scheduled' OR (c.status = 'lock-processing' AND c.scheduledAt IS NOT NULL))`);
      } else qb.andWhere('c.status = :status', { status: query.status });
    }
    if (query.contactId) qb.andWhere('c.contactId = :contactId', { contactId: query.contactId });
    if (query.caseId) qb.andWhere('c.caseId = :caseId', { caseId: query.caseId });
    if (query.from) qb.andWhere('c.createdAt >= :from', { from: new Date(query.from) });
    if (query.to) qb.andWhere('c.createdAt < :to', { to: new Date(query.to) });
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

  async get(organizationId: string, id: string): Promise<Call> {
    const call = await this.calls.findOneBy({ id, organizationId });
    if (!call) throw ApiError.notFound('Call');
    return call;
  }

  /**
   * Cancels a call that has not been claimed for dispatch. One conditional UPDATE decides the race with the
   * dispatcher's claim: whichever statement commits first wins, the other matches no row.
   */
  async cancel(organizationId: string, id: string): Promise<void> {
    const cancelled = await this.dataSource.transaction(async (m) => {
      const [call] = await callRows(
        m,
        `UPDATE calls SET status = 'cancelled', updated_at = now()
          WHERE id = $1 AND organization_id = $2 AND status IN ('new', 'scheduled') RETURNING *`,
        [id, organizationId],
      );
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
