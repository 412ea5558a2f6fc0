import { Injectable, Logger } from '@nestjs/common';
import { FollowUpCampaignsRepository } from '../../automations/follow-up-campaigns.repository';
import { CallsService } from '../../calls/calls.service';
import { CampaignsRepository } from '../campaigns.repository';
import { CreateCampaignCommand } from '../create-campaign.command';
import { FollowUpMessenger } from './follow-up-messenger';

/** The fields of a finished call's event (the Call object) that a follow-up reacts to. */
export interface FinishedCall {
  id: string;
  direction: string;
  callTo: string;
  contactId: string | null;
  caseId: string | null;
  campaignId: string | null;
  endedReason: string | null;
  updatedAt: string;
}

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

  constructor(
    private readonly followUps: FollowUpCampaignsRepository,
    private readonly campaigns: CampaignsRepository,
    private readonly create: CreateCampaignCommand,
    private readonly calls: CallsService,
    private readonly messenger: FollowUpMessenger,
  ) {}

  async onCallFinished(organizationId: string, call: FinishedCall): Promise<void> {
    if (call.direction !== 'outbound' || !call.endedReason) return;
    if (call.campaignId && (await this.campaigns.sourceTypeOf(call.campaignId)) === 'follow_up') return;
    const triggered = await this.followUps.triggeredBy(organizationId, call.endedReason, call.caseId);
    if (!triggered.length) return;
    // The mode is not in the event payload (the public Call has no such field): a test call's follow-up is a
    // test campaign, so a test key never reaches a real provider, even through an automation.
    const livemode = await this.calls.isLive(call.id);
    for (const f of triggered) {
      if (f.messageTemplateName) await this.messenger.onCallFinished(organizationId, f, call, livemode);
      if (f.delaySeconds === null || !f.callFrom) continue;
      try {
        await this.create.execute(
          organizationId,
          {
            name: `Follow-up ${f.id} of call ${call.id}`,
            from: f.callFrom,
            caseId: f.caseId ?? undefined,
            assistantConfigId: f.assistantConfigId ?? undefined,
            audience: { rows: [{ to: call.callTo, contactId: call.contactId ?? undefined }] },
            startAt: new Date(Date.parse(call.updatedAt) + f.delaySeconds * 1000).toISOString(),
          },
          { livemode, source: { type: 'follow_up', id: f.id, key: call.id } },
        );
      } catch (error) {
        this.logger.warn({ followUpId: f.id, callId: call.id, err: (error as Error).message }, 'Follow-up not placed');
      }
    }
  }
}
