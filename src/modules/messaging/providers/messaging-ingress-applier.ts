import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '../../../common/ids/id-param.pipe';
import { DeliveryStatusService } from '../delivery-status.service';
import type { MessagingAccount } from '../messaging-account.entity';
import { MessagingAccountsService } from '../messaging-accounts.service';
import { RecordInboundMessageCommand } from '../record-inbound-message.command';
import { SendMessageJob } from '../send-message.job';
import { MessagingIngress, MessagingIngressEvent } from './messaging-ingress';

/**
 * The messaging domain's side of MessagingIngress: each event goes to the rule that owns it (a user's message to
 * RecordInboundMessageCommand, a delivery report to the send queue when it names a message still waiting there and
 * then to DeliveryStatusService, a template's review outcome to the account's stored templates).
 */
@Injectable()
export class MessagingIngressApplier extends MessagingIngress {
  private readonly logger = new Logger(MessagingIngressApplier.name);

  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly recordInbound: RecordInboundMessageCommand,
    private readonly statuses: DeliveryStatusService,
    private readonly sendQueue: SendMessageJob,
  ) {
    super();
  }

  findAccount(phoneNumberId: string): Promise<MessagingAccount | null> {
    return this.accounts.findByPhoneNumberId(phoneNumberId);
  }

  async apply(event: MessagingIngressEvent): Promise<void> {
    switch (event.kind) {
      case 'inbound':
        await this.recordInbound.execute(event.message);
        return;
      case 'delivery-status': {
        const { accountId, providerMessageId, status, error, ourMessageId } = event;
        // The echoed id is the provider's copy of what the send carried: anything but a UUID names no message.
        if (isUuid(ourMessageId)) await this.sendQueue.reconcile(accountId, ourMessageId, providerMessageId);
        await this.statuses.apply({ accountId, providerMessageId, status, ...(error ? { error } : {}) });
        return;
      }
      case 'template-status': {
        const { wabaId, processWide, name, language, status } = event;
        const changed = await this.accounts.setTemplateStatus(wabaId, processWide, name, language, status);
        this.logger.log({ wabaId, name, language, status, changed }, 'Template status update');
        return;
      }
    }
  }
}
