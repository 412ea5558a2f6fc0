import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ReferenceTarget } from '../../common/references/reference-registry';
import { queryEntities } from '../../infra/database/entity-rows';
import { Tx } from '../../infra/database/tx';
import { FollowUpCampaign } from './follow-up-campaign.entity';

/** The SQL of `follow_up_campaigns`: the admin API's records and the dialer's triggers. */
@Injectable()
export class FollowUpCampaignsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The organization's acting follow-ups (a call, a message or both) that a call of this case ending this way triggers. */
  triggeredBy(organizationId: string, endedReason: string, caseId: string | null): Promise<FollowUpCampaign[]> {
    return queryEntities(
      this.dataSource.manager,
      FollowUpCampaign,
      `SELECT * FROM follow_up_campaigns
        WHERE organization_id = $1
          AND ((delay_seconds IS NOT NULL AND call_from IS NOT NULL) OR message_template_name IS NOT NULL)
          AND $2 = ANY(trigger_on) AND (trigger_case_id IS NULL OR trigger_case_id = $3)`,
      [organizationId, endedReason, caseId],
    );
  }

  /** In the transaction that locked what the follow-up names; the row as stored (its defaults filled). */
  insert(tx: Tx, fields: Partial<FollowUpCampaign>): Promise<FollowUpCampaign> {
    return tx.save(tx.create(FollowUpCampaign, { id: uuidv7(), ...fields }));
  }

  /** The organization's follow-ups, newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<FollowUpCampaign[]> {
    return this.dataSource.manager.find(FollowUpCampaign, {
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  find(organizationId: string, id: string): Promise<FollowUpCampaign | null> {
    return this.dataSource.manager.findOneBy(FollowUpCampaign, { id, organizationId });
  }

  /** Follow-ups that run with the case or outbound assistant (they block its delete). */
  countReferencing(tx: EntityManager, organizationId: string, target: ReferenceTarget): Promise<number> {
    return tx.countBy(FollowUpCampaign, { organizationId, ...target });
  }
}
