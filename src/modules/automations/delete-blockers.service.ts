import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { Call, QUEUED_CALL_STATUSES } from '../calls/call.entity';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { RecurringSchedule } from './recurring-schedule.entity';

export interface DeleteBlockers {
  queuedCalls: number;
  recurringSchedules: number;
  followUpCampaigns: number;
}

/** What a case or outbound assistant is referenced by; the column name is the same in every table. */
export type BlockerTarget = { caseId: string } | { assistantConfigId: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Counts what still references a case or an outbound assistant. Callers run it inside the transaction that
 * holds the target row `FOR UPDATE`; anything that adds a reference locks that row `FOR SHARE` first, so the
 * counts cannot go stale between this check and the delete.
 */
@Injectable()
export class DeleteBlockersService {
  async count(manager: EntityManager, organizationId: string, target: BlockerTarget): Promise<DeleteBlockers> {
    const where = { organizationId, ...target };
    // Sequential on purpose: a transaction's manager holds one connection, which runs one query at a time.
    const queuedCalls = await manager.countBy(Call, { ...where, status: In([...QUEUED_CALL_STATUSES]) });
    const recurringSchedules = await manager.countBy(RecurringSchedule, where);
    const followUpCampaigns = await manager.countBy(FollowUpCampaign, where);
    return { queuedCalls, recurringSchedules, followUpCampaigns };
  }

  /** 409 CONFLICT naming and counting every kind of blocker, e.g. "Case is in use: 2 queued calls, ...". */
  async assertNone(manager: EntityManager, organizationId: string, target: BlockerTarget, what: string): Promise<void> {
    const b = await this.count(manager, organizationId, target);
    if (b.queuedCalls + b.recurringSchedules + b.followUpCampaigns === 0) return;
    throw ApiError.conflict(
      `${what} is in use: ${plural(b.queuedCalls, 'queued call', 'queued calls')}, ` +
        `${plural(b.recurringSchedules, 'recurring schedule', 'recurring schedules')}, ` +
        `${plural(b.followUpCampaigns, 'follow-up campaign', 'follow-up campaigns')}`,
    );
  }
}
