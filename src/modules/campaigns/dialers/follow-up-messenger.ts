import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { World } from '../../../common/auth/world';
import { ApiError } from '../../../common/errors/api-error';
import { FollowUpCampaign } from '../../automations/follow-up-campaign.entity';
import { FollowUpMessageOutcome, FollowUpMessagesRepository } from '../../automations/follow-up-messages.repository';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import { ConversationsService } from '../../messaging/conversations.service';
import { SendMessageCommand } from '../../messaging/send-message.command';
import type { FinishedCallPayload } from '../../outbox/event-payloads';

/** The facts of a finished call that a message follow-up needs. */
type MessagedCall = Pick<FinishedCallPayload, 'callId' | 'callTo'>;

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

  async onCallFinished(world: World, followUp: FollowUpCampaign, call: MessagedCall): Promise<void> {
    if (!(await this.records.claim(world.organizationId, followUp.id, call.callId))) return;
    const outcome = await this.attempt(world, followUp, call);
    await this.records.settle(followUp.id, call.callId, outcome);
    if (outcome.status === 'skipped') {
      this.logger.log(
        { followUpId: followUp.id, callId: call.callId, reason: outcome.reason },
        'Follow-up message skipped',
      );
    }
  }

  /** In the call's world: its ledger, its conversation, its sending rules. */
  private async attempt(world: World, followUp: FollowUpCampaign, call: MessagedCall): Promise<FollowUpMessageOutcome> {
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
