import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { Campaign, CampaignStatus } from './campaign.entity';
import { CampaignEvents } from './campaign-events';
import { CAMPAIGN_MOVES, CampaignAction } from './campaign-state';
import { CampaignsRepository } from './campaigns.repository';
import { World, inWorld } from '../../common/auth/world';
import { inTransaction } from '../../infra/database/tx';

/**
 * start / pause / resume / cancel, under the campaign's row lock (the engine holds the same lock while it
 * dials, so a pause or cancel is never half-seen by a step in progress: that step commits first, and the next
 * one sees the new status and dials nothing).
 */
@Injectable()
export class ChangeCampaignStateCommand {
  constructor(
    private readonly dataSource: DataSource,
    private readonly campaigns: CampaignsRepository,
    private readonly events: CampaignEvents,
  ) {}

  /** The other world's campaign is 404 like another organization's. */
  execute(world: World, id: string, action: CampaignAction): Promise<Campaign> {
    return inTransaction(this.dataSource, async (m) => {
      const current = await this.campaigns.lock(m, id, false);
      if (!current || !inWorld(current, world)) throw ApiError.notFound('Campaign');
      if (!CAMPAIGN_MOVES[action].includes(current.status)) {
        throw new ApiError('INVALID_STATE', `A ${current.status} campaign cannot ${action}`);
      }
      const startsLater = current.startAt !== null && current.startAt.getTime() > Date.now();
      const next: Record<CampaignAction, CampaignStatus> = {
        start: startsLater ? 'scheduled' : 'running',
        pause: 'paused',
        resume: startsLater ? 'scheduled' : 'running',
        cancel: 'cancelled',
      };
      const updated = await this.campaigns.setStatus(m, id, next[action]);
      if (action === 'start' && updated.status === 'running') await this.events.record(m, updated, 'campaign.started');
      if (action === 'pause') await this.events.record(m, updated, 'campaign.paused');
      return updated;
    });
  }
}
