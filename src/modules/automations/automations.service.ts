import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { OutboundAssistant } from '../assistants/outbound-assistant.entity';
import { Case } from '../cases/case.entity';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { RecurringSchedule, RecurringScheduleStatus } from './recurring-schedule.entity';

interface References {
  caseId?: string;
  assistantConfigId?: string;
}

/** Dashboard-managed recurring schedules and follow-up campaigns (admin API); they block deletes. */
@Injectable()
export class AutomationsService {
  constructor(private readonly dataSource: DataSource) {}

  createRecurringSchedule(
    organizationId: string,
    refs: References,
    status: RecurringScheduleStatus,
  ): Promise<RecurringSchedule> {
    return this.dataSource.transaction(async (m) => {
      await this.lockReferences(m, organizationId, refs);
      return m.save(
        m.create(RecurringSchedule, {
          id: uuidv7(),
          organizationId,
          caseId: refs.caseId ?? null,
          assistantConfigId: refs.assistantConfigId ?? null,
          status,
        }),
      );
    });
  }

  createFollowUpCampaign(organizationId: string, refs: References): Promise<FollowUpCampaign> {
    return this.dataSource.transaction(async (m) => {
      await this.lockReferences(m, organizationId, refs);
      return m.save(
        m.create(FollowUpCampaign, {
          id: uuidv7(),
          organizationId,
          caseId: refs.caseId ?? null,
          assistantConfigId: refs.assistantConfigId ?? null,
        }),
      );
    });
  }

  /**
   * The referenced case and assistant must exist in the organization; `FOR SHARE` keeps a concurrent delete
   * (which takes `FOR UPDATE`) waiting until this reference is committed, so it then sees and counts it.
   */
  private async lockReferences(m: EntityManager, organizationId: string, refs: References): Promise<void> {
    if (!refs.caseId && !refs.assistantConfigId) {
      throw ApiError.validation('caseId', 'caseId or assistantConfigId is required');
    }
    if (refs.caseId) {
      const found = await m
        .createQueryBuilder(Case, 'c')
        .setLock('pessimistic_read')
        .where('c.id = :id AND c.organizationId = :organizationId', { id: refs.caseId, organizationId })
        .getExists();
      if (!found) throw ApiError.notFound('Case');
    }
    if (refs.assistantConfigId) {
      const found = await m
        .createQueryBuilder(OutboundAssistant, 'a')
        .setLock('pessimistic_read')
        .where('a.id = :id AND a.organizationId = :organizationId', { id: refs.assistantConfigId, organizationId })
        .getExists();
      if (!found) throw ApiError.notFound('Outbound assistant');
    }
  }
}
