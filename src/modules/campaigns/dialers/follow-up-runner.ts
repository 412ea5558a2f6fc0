import { Injectable, Logger } from '@nestjs/common';
import type { World } from '../../../common/auth/world';
import { BoundedMap } from '../../../common/cache/bounded-map';
import type { FinishedCallPayload } from '../../outbox/event-payloads';
import { FollowUpCampaignsRepository } from '../../automations/follow-up-campaigns.repository';
import { CampaignsRepository } from '../campaigns.repository';
import { CreateCampaignCommand } from '../create-campaign.command';
import { FollowUpMessenger } from './follow-up-messenger';

/** Campaigns whose source a process keeps at most; past it, the one kept longest goes first. */
const KEPT_SOURCES = 1000;

/**
 * Follow-up campaigns (the contract's automations, driven by the dialer): an outbound call that ends one of the
 * ways a follow-up names (not answered, voicemail...) gets one more call to the same number after the delay,
 * with the follow-up's case and assistant, placed as a one-entry campaign keyed by (follow-up, call) so a
 * redelivered event never places it twice; and/or, for a follow-up with a message, an approved template in the
 * conversation with that number (FollowUpMessenger). A follow-up's own calls trigger nothing (no chains).
 */
@Injectable()
export class FollowUpRunner {
  private readonly logger = new Logger(FollowUpRunner.name);
  /** A campaign's source is fixed when it is created, and every one of its calls asks for it: read once. */
  private readonly sources = new BoundedMap<string, string | null>(KEPT_SOURCES);

  constructor(
    private readonly followUps: FollowUpCampaignsRepository,
    private readonly campaigns: CampaignsRepository,
    private readonly create: CreateCampaignCommand,
    private readonly messenger: FollowUpMessenger,
  ) {}

  async onCallFinished(world: World, call: FinishedCallPayload): Promise<void> {
    const { organizationId, livemode } = world;
    if (call.direction !== 'outbound' || !call.endedReason) return;
    if (call.campaignId && (await this.sourceTypeOf(call.campaignId)) === 'follow_up') return;
    const triggered = await this.followUps.triggeredBy(organizationId, call.endedReason, call.caseId);
    if (!triggered.length) return;
    // The event's world: a test call's follow-up is a test campaign, so a test key never reaches a real provider,
    // even through an automation.
    for (const f of triggered) {
      if (f.messageTemplateName) await this.messenger.onCallFinished(world, f, call);
      if (f.delaySeconds === null || !f.callFrom) continue;
      try {
        await this.create.execute(
          organizationId,
          {
            name: `Follow-up ${f.id} of call ${call.callId}`,
            from: f.callFrom,
            caseId: f.caseId ?? undefined,
            assistantConfigId: f.assistantConfigId ?? undefined,
            audience: { rows: [{ to: call.callTo, contactId: call.contactId ?? undefined }] },
            startAt: new Date(Date.parse(call.endedAt) + f.delaySeconds * 1000).toISOString(),
          },
          { livemode, source: { type: 'follow_up', id: f.id, key: call.callId } },
        );
      } catch (error) {
        this.logger.warn(
          { followUpId: f.id, callId: call.callId, err: (error as Error).message },
          'Follow-up not placed',
        );
      }
    }
  }

  private async sourceTypeOf(campaignId: string): Promise<string | null> {
    const known = this.sources.get(campaignId);
    if (known !== undefined) return known;
    const source = await this.campaigns.sourceTypeOf(campaignId);
    this.sources.set(campaignId, source);
    return source;
  }
}
