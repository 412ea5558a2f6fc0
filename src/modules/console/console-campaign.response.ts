import { ApiProperty } from '@nestjs/swagger';
import { CAMPAIGN_ACTIONS, CampaignAction, allowedActions } from '../campaigns/campaign-state';
import { CampaignResponse } from '../campaigns/campaign.response';
import { CreatedCampaignResponse } from '../campaigns/created-campaign.response';

/** A campaign as the public API shows it, plus the moves it allows now, so the console never re-encodes them. */
export class ConsoleCampaignResponse extends CampaignResponse {
  @ApiProperty({
    enum: CAMPAIGN_ACTIONS,
    isArray: true,
    example: ['pause', 'cancel'],
    description: 'The state moves allowed now (any other answers 422 INVALID_STATE)',
  })
  actions: CampaignAction[];

  static withActions(campaign: CampaignResponse): ConsoleCampaignResponse {
    return { ...campaign, actions: allowedActions(campaign.status) };
  }
}

/** A campaign just created in the console: its moves, and what the audience's preflight left out. */
export class ConsoleCreatedCampaignResponse extends CreatedCampaignResponse {
  @ApiProperty({ enum: CAMPAIGN_ACTIONS, isArray: true, example: ['start', 'cancel'] })
  actions: CampaignAction[];
}
