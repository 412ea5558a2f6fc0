import { CAMPAIGN_STATUSES, CampaignStatus } from './campaign.entity';

/**
 * The campaign state machine, in one place: every status move a campaign may make, by the API (the actions below)
 * or by the engine (scheduled -> running at its start time, running -> paused for want of minutes or plan and
 * back, running -> completed). `CampaignsRepository.setStatus` moves a campaign only from a status listed here
 * for the target (its `WHERE status = ANY(...)` comes from `movableTo`); completed and cancelled are final.
 */
export const CAMPAIGN_TRANSITIONS: Readonly<Record<CampaignStatus, readonly CampaignStatus[]>> = {
  draft: ['scheduled', 'running', 'cancelled'],
  scheduled: ['running', 'paused', 'cancelled'],
  running: ['paused', 'completed', 'cancelled'],
  paused: ['scheduled', 'running', 'cancelled'],
  completed: [],
  cancelled: [],
};

/** The statuses a campaign may move to `to` from. */
export const movableTo = (to: CampaignStatus): CampaignStatus[] =>
  CAMPAIGN_STATUSES.filter((from) => CAMPAIGN_TRANSITIONS[from].includes(to));

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
