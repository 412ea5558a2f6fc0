import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxService } from '../outbox/outbox.service';
import { Campaign } from './campaign.entity';
import { CampaignResponse } from './campaign.response';
import { CampaignsRepository } from './campaigns.repository';

type CampaignEvent = 'campaign.started' | 'campaign.paused' | 'campaign.completed';

/** Records a campaign.* event (extension) with the Campaign as data, in the transaction that made the move. */
@Injectable()
export class CampaignEvents {
  constructor(
    private readonly outbox: OutboxService,
    private readonly campaigns: CampaignsRepository,
  ) {}

  async record(m: EntityManager, campaign: Campaign, type: CampaignEvent): Promise<void> {
    const progress = (await this.campaigns.progress([campaign.id], m)).get(campaign.id)!;
    await this.outbox.record(m, campaign, type, { ...CampaignResponse.from(campaign, progress) });
  }
}
