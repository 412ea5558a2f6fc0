import { CAMPAIGN_STATUSES, CampaignStatus } from './campaign.entity';
import { CAMPAIGN_ACTIONS, CAMPAIGN_MOVES, CAMPAIGN_TRANSITIONS, CampaignAction, movableTo } from './campaign-state';

/** Where each API action takes a campaign (ChangeCampaignStateCommand: a later start time means `scheduled`). */
const ACTION_TARGETS: Record<CampaignAction, readonly CampaignStatus[]> = {
  start: ['scheduled', 'running'],
  pause: ['paused'],
  resume: ['scheduled', 'running'],
  cancel: ['cancelled'],
};

/** The engine's moves (AdvanceCampaignCommand), each under the campaign's row lock. */
const ENGINE_MOVES: ReadonlyArray<[CampaignStatus, CampaignStatus]> = [
  ['scheduled', 'running'],
  ['paused', 'running'],
  ['running', 'paused'],
  ['running', 'completed'],
];

describe('campaign transitions', () => {
  it('allows every move the API offers', () => {
    for (const action of CAMPAIGN_ACTIONS)
      for (const from of CAMPAIGN_MOVES[action])
        for (const to of ACTION_TARGETS[action])
          expect({ action, from, to, allowed: CAMPAIGN_TRANSITIONS[from].includes(to) }).toMatchObject({
            allowed: true,
          });
  });

  it('allows every move the engine makes', () => {
    for (const [from, to] of ENGINE_MOVES) expect(movableTo(to)).toContain(from);
  });

  it('allows nothing else: every edge is an API or engine move, and completed and cancelled are final', () => {
    const made = new Set([
      ...ENGINE_MOVES.map(([from, to]) => `${from}->${to}`),
      ...CAMPAIGN_ACTIONS.flatMap((a) =>
        CAMPAIGN_MOVES[a].flatMap((from) => ACTION_TARGETS[a].map((to) => `${from}->${to}`)),
      ),
    ]);
    for (const from of CAMPAIGN_STATUSES)
      for (const to of CAMPAIGN_TRANSITIONS[from]) expect(made).toContain(`${from}->${to}`);
    expect(CAMPAIGN_TRANSITIONS.completed).toEqual([]);
    expect(CAMPAIGN_TRANSITIONS.cancelled).toEqual([]);
  });
});
