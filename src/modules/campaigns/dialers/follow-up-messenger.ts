import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../common/errors/api-error';
import { FollowUpCampaign } from '../../automations/follow-up-campaign.entity';
import { FollowUpMessageOutcome, FollowUpMessagesRepository } from '../../automations/follow-up-messages.repository';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import { ConversationsService } from '../../messaging/conversations.service';
import { SendMessageCommand } from '../../messaging/send-message.command';

/** The fields of a finished call that a message follow-up needs. */
export interface MessagedCall {
  id: string;
  callTo: string;
}

/**
 * Message follow-ups (extension): the number of a call that ended as the follow-up names gets its approved
 * template in the organization's conversation with that number. Sent through SendMessageCommand, the command of
 * `POST /api/v1/messaging/messages`, so approval, test mode and the provider's refusals apply unchanged. Each
 * (follow-up, call) is claimed in PostgreSQL before the send, so a redelivered event never sends twice; every
 * outcome, a skip included, is recorded with its reason.
 */
@Injectable()
export class FollowUpMessenger {
  private readonly logger = new Logger(FollowUpMessenger.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly records: FollowUpMessagesRepository,
    private readonly conversations: ConversationsService,
    private readonly send: SendMessageCommand,
    private readonly doNotCall: DoNotCallService,
  ) {}

  async onCallFinished(
    organizationId: string,
    followUp: FollowUpCampaign,
    call: MessagedCall,
    livemode: boolean,
  ): Promise<void> {
    if (!(await this.records.claim(organizationId, followUp.id, call.id))) return;
    const outcome = await this.attempt(organizationId, followUp, call, livemode);
    await this.records.settle(followUp.id, call.id, outcome);
    if (outcome.status === 'skipped') {
      this.logger.log(
        { followUpId: followUp.id, callId: call.id, reason: outcome.reason },
        'Follow-up message skipped',
      );
    }
  }

  private async attempt(
    organizationId: string,
    followUp: FollowUpCampaign,
    call: MessagedCall,
    livemode: boolean,
  ): Promise<FollowUpMessageOutcome> {
    // The call's world: its ledger, its conversation, its sending rules.
    const world = { organizationId, livemode };
    // A number on the ledger asked not to be contacted (a STOP message lists it): no template either.
    const listed = await this.doNotCall.listedAmong(this.dataSource.manager, world, [call.callTo]);
    if (listed.size) return { status: 'skipped', reason: 'DO_NOT_CALL' };
    const conversation = await this.conversations.latestWith(world, call.callTo);
    if (!conversation) return { status: 'skipped', reason: 'NO_CONVERSATION' };
    try {
      const sent = await this.send.execute(world, {
        type: 'template',
        conversationId: conversation.id,
        templateName: followUp.messageTemplateName!,
        templateLanguage: followUp.messageTemplateLanguage!,
        variables: followUp.messageVariables ?? {},
      });
      return { status: 'sent', messageId: sent.messageId, conversationId: conversation.id };
    } catch (error) {
      // The command's refusals (template no longer approved, provider refusal) are outcomes to record, not faults.
      if (!(error instanceof ApiError)) throw error;
      return { status: 'skipped', reason: error.code, conversationId: conversation.id };
    }
  }
}
