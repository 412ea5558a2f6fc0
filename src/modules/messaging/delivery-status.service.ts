import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxService } from '../outbox/outbox.service';
import { REPORT_ORDER } from './delivery-status-transitions';
import { EarlyDeliveryStatusesRepository } from './early-delivery-statuses.repository';
import { DeliveryStatus } from './message.entity';
import { DeliveryReport, MessagesRepository, MovedMessage } from './messages.repository';
import { ProviderError } from './providers/messaging-provider';
import { inTransaction, Tx } from '../../infra/database/tx';

/**
 * Records a provider's status reports for our outbound messages, from its webhook or the simulator alike: moves
 * `deliveryStatus` as DELIVERY_TRANSITIONS allows (forward only; `failed` wins over anything but `read`), keeps the
 * error's code and title, and records `message.<status>` for webhooks in the same transaction. A report that
 * arrives before the message row is stored is kept and applied once it is (applyEarly), so none is lost.
 */
@Injectable()
export class DeliveryStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly messages: MessagesRepository,
    private readonly early: EarlyDeliveryStatusesRepository,
  ) {}

  /** True when the report changed the message. */
  async apply(report: DeliveryReport): Promise<boolean> {
    const outcome = await inTransaction(this.dataSource, async (m) => {
      if (await this.move(m, report)) return 'moved';
      if (await this.messages.exists(m, report)) return 'stale';
      await this.early.keep(m, report);
      return 'kept';
    });
    // The message may have been stored while this report was being kept: its own applyEarly ran before this
    // commit and saw nothing, so look again now that the report is visible.
    if (outcome === 'kept') return (await this.applyEarly(report.accountId, report.providerMessageId)) > 0;
    return outcome === 'moved';
  }

  /**
   * Applies the reports kept for a message that now exists (called after the message row commits, and after a
   * report is kept). Each kept report is claimed by one caller only, and applied in REPORT_ORDER.
   */
  async applyEarly(accountId: string, providerMessageId: string): Promise<number> {
    return inTransaction(this.dataSource, async (m) => {
      const claimed = await this.early.claim(m, { accountId, providerMessageId });
      const rank = (s: DeliveryStatus) => REPORT_ORDER.indexOf(s);
      let moved = 0;
      for (const { status, error } of claimed.sort((a, b) => rank(a.status) - rank(b.status))) {
        if (await this.move(m, { accountId, providerMessageId, status, error })) moved += 1;
      }
      return moved;
    });
  }

  /**
   * Fails a message the provider never took (the send queue gave up on it) with the provider's error, and records
   * `message.failed` as a failed status report does. False when it had been taken meanwhile.
   */
  async failUnsent(messageId: string, error: ProviderError): Promise<boolean> {
    return inTransaction(this.dataSource, async (m) => {
      const moved = await this.messages.failUnsent(m, messageId, error);
      if (moved) await this.recordMove(m, moved, 'failed');
      return Boolean(moved);
    });
  }

  /** The conditional move and its event; false when the message is unknown or the table refuses the move. */
  private async move(m: Tx, report: DeliveryReport): Promise<boolean> {
    const moved = await this.messages.moveDeliveryStatus(m, report);
    if (!moved || report.status === 'accepted') return Boolean(moved);
    await this.recordMove(m, moved, report.status);
    return true;
  }

  private async recordMove(m: Tx, moved: MovedMessage, status: Exclude<DeliveryStatus, 'accepted'>): Promise<void> {
    const world = { organizationId: moved.organization_id, livemode: moved.livemode };
    await this.outbox.record(m, world, `message.${status}`, {
      messageId: moved.id,
      conversationId: moved.conversation_id,
      senderType: moved.sender_type,
    });
  }
}
