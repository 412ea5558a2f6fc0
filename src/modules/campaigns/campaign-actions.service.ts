import { Injectable } from '@nestjs/common';
import { CampaignAction } from './campaign-state';
import { CampaignResponse } from './campaign.response';
import { CampaignsService } from './campaigns.service';
import { ChangeCampaignStateCommand } from './change-campaign-state.command';
import { CampaignEngineJob } from './engine/campaign-engine.job';
import { World } from '../../common/auth/world';

/**
 * start / pause / resume / cancel as one step for every caller (public API and console): the state change under
 * the row lock, then a kick of the engine once the campaign runs (after commit, so the step sees the new status).
 */
@Injectable()
export class CampaignActionsService {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly changeState: ChangeCampaignStateCommand,
    private readonly engine: CampaignEngineJob,
  ) {}

  async apply(world: World, id: string, action: CampaignAction): Promise<CampaignResponse> {
    const campaign = await this.changeState.execute(world, id, action);
    if (campaign.status === 'running') await this.engine.requestStep(campaign.id);
    return this.campaigns.present(campaign);
  }
}
