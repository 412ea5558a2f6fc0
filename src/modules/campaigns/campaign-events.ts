import { Injectable, OnModuleInit } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import type { Tx } from '../../infra/database/tx';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import type { CampaignEventPayload } from '../outbox/event-payloads';
import { OutboxService } from '../outbox/outbox.service';
import { Campaign } from './campaign.entity';
import { CampaignResponse } from './campaign.response';
import { CampaignsRepository } from './campaigns.repository';

/**
 * Campaign events (extension): recorded in the transaction that made the move, with the campaign's id; their
 * webhook body is the Campaign with its progress as it is when the delivery is sent.
 */
@Injectable()
export class CampaignEvents implements OnModuleInit {
  constructor(
    private readonly outbox: OutboxService,
    private readonly bodies: EventBodies,
    private readonly campaigns: CampaignsRepository,
  ) {}

  onModuleInit(): void {
    const render = (world: World, payload: CampaignEventPayload) => this.render(world, payload.campaignId);
    this.bodies.register({
      'campaign.started': render,
      'campaign.paused': render,
      'campaign.completed': render,
    } satisfies EventBodyRenderers<EventFamily<'campaign'>>);
  }

  async record(tx: Tx, campaign: Campaign, type: EventFamily<'campaign'>): Promise<void> {
    if (type === 'campaign.paused') {
      await this.outbox.record(tx, campaign, type, { campaignId: campaign.id, pausedReason: campaign.pausedReason });
      return;
    }
    await this.outbox.record(tx, campaign, type, { campaignId: campaign.id });
  }

  private async render(world: World, campaignId: string): Promise<Record<string, unknown> | null> {
    const campaign = await this.campaigns.find(world, campaignId);
    if (!campaign) return null;
    const progress = (await this.campaigns.progress([campaign.id])).get(campaign.id)!;
    return { ...CampaignResponse.from(campaign, progress) };
  }
}
