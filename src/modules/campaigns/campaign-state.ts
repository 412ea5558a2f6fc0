import { CampaignStatus } from './campaign.entity';

export const CAMPAIGN_ACTIONS = ['start', 'pause', 'resume', 'cancel'] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** The moves the API may make; anything else is 422 INVALID_STATE. The engine moves scheduled -> running -> completed. */
export const CAMPAIGN_MOVES: Record<CampaignAction, readonly CampaignStatus[]> = {
  start: ['draft'],
  pause: ['scheduled', 'running'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
};

/** The moves a campaign in `status` allows now (what a UI may offer), read from the one table above. */
export const allowedActions = (status: CampaignStatus): CampaignAction[] =>
  CAMPAIGN_ACTIONS.filter((action) => CAMPAIGN_MOVES[action].includes(status));
