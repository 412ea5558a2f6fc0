import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxService } from '../outbox/outbox.service';
import { DeliveryStatus, Message } from './message.entity';
import { ProviderError } from './providers/messaging-provider';
import { inTransaction, Tx } from '../../infra/database/tx';

/** The forward order of the good path; a report never moves a message backwards (webhooks arrive out of order). */
const PROGRESS: DeliveryStatus[] = ['accepted', 'sent', 'delivered', 'read'];
/** How long a report about a message we never stored is kept (one about another app's message never matches). */
const EARLY_REPORT_TTL = '1 hour';

export interface StatusReport {
  accountId: string;
  providerMessageId: string;
  status: DeliveryStatus;
  /** Why, when `failed`. */
  error?: ProviderError;
}

/**
 * Records a provider's status reports for our outbound messages, from its webhook or the simulator alike: moves
 * `deliveryStatus` forward (never back; `failed` wins over anything but `read`), keeps the error's code and
 * title, and records `message.<status>` for webhooks in the same transaction. A report that arrives before the
 * message row is stored is kept and applied once it is (applyEarly), so none is lost.
 */
/** What a moved message returns: its event's payload and world, without reading the row again. */
interface MovedMessage {
  id: string;
  conversation_id: string;
  sender_type: string;
  organization_id: string;
  livemode: boolean;
}

@Injectable()
export class DeliveryStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** True when the report changed the message. */
  async apply(report: StatusReport): Promise<boolean> {
    const outcome = await inTransaction(this.dataSource, async (m) => {
      if (await this.move(m, report)) return 'moved';
      const known = await m.existsBy(Message, {
        accountId: report.accountId,
        providerMessageId: report.providerMessageId,
      });
      if (known) return 'stale';
      await m.query(
        `WITH pruned AS (DELETE FROM early_delivery_statuses WHERE received_at < now() - interval '${EARLY_REPORT_TTL}')
         INSERT INTO early_delivery_statuses (account_id, provider_message_id, status, error_code, error_title)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [
          report.accountId,
          report.providerMessageId,
          report.status,
          report.error?.code ?? null,
          report.error?.title ?? null,
        ],
      );
      return 'kept';
    });
    // The message may have been stored while this report was being kept: its own applyEarly ran before this
    // commit and saw nothing, so look again now that the report is visible.
    if (outcome === 'kept') return (await this.applyEarly(report.accountId, report.providerMessageId)) > 0;
    return outcome === 'moved';
  }

  /**
   * Applies the reports kept for a message that now exists (called after the message row commits, and after a
   * report is kept). Each kept report is claimed by one caller only (DELETE ... RETURNING), in good-path order.
   */
  async applyEarly(accountId: string, providerMessageId: string): Promise<number> {
    return inTransaction(this.dataSource, async (m) => {
      const claimed: Array<{ status: DeliveryStatus; error_code: number | null; error_title: string | null }> =
        await m.query(
          // A SELECT over the CTE: TypeORM hands back a DELETE's rows with its count, a SELECT's rows alone.
          `WITH claimed AS (
             DELETE FROM early_delivery_statuses e
              WHERE e.account_id = $1 AND e.provider_message_id = $2
                AND EXISTS (SELECT 1 FROM messages WHERE account_id = $1 AND provider_message_id = $2)
            RETURNING e.status, e.error_code, e.error_title)
           SELECT * FROM claimed`,
          [accountId, providerMessageId],
        );
      const rank = (s: DeliveryStatus) => (s === 'failed' ? PROGRESS.length : PROGRESS.indexOf(s));
      let moved = 0;
      for (const row of claimed.sort((a, b) => rank(a.status) - rank(b.status))) {
        const error = row.error_code === null ? undefined : { code: row.error_code, title: row.error_title ?? '' };
        if (await this.move(m, { accountId, providerMessageId, status: row.status, error })) moved += 1;
      }
      return moved;
    });
  }

  /** The conditional move and its event; false when the message is unknown or the report would go backwards. */
  private async move(m: Tx, report: StatusReport): Promise<boolean> {
    const { status, error } = report;
    const qb = m
      .createQueryBuilder()
      .update(Message)
      .set({
        deliveryStatus: status,
        ...(status === 'failed'
          ? { errorCode: error?.code ?? null, errorTitle: error?.title || 'Delivery failed' }
          : {}),
      })
      .where('account_id = :accountId AND provider_message_id = :providerMessageId AND direction = :outbound', {
        accountId: report.accountId,
        providerMessageId: report.providerMessageId,
        outbound: 'outbound',
      })
      .returning('id, conversation_id, sender_type, organization_id, livemode');
    if (status === 'failed') {
      qb.andWhere("(delivery_status IS NULL OR delivery_status NOT IN ('read', 'failed'))");
    } else {
      const rank = (expression: string) => `array_position(CAST(:progress AS text[]), ${expression})`;
      qb.andWhere(
        `(delivery_status IS NULL OR (delivery_status <> 'failed' AND ${rank('delivery_status')} < ${rank('CAST(:status AS text)')}))`,
        { progress: PROGRESS, status },
      );
    }
    const result = await qb.execute();
    const [moved] = result.raw as Array<MovedMessage>;
    if (!moved || status === 'accepted') return Boolean(moved);
    const world = { organizationId: moved.organization_id, livemode: moved.livemode };
    await this.outbox.record(m, world, `message.${status}`, {
      messageId: moved.id,
      conversationId: moved.conversation_id,
      senderType: moved.sender_type,
    });
    return true;
  }
}
