import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { DeliveryStatus } from './message.entity';
import { DeliveryReport, ProviderMessageRef } from './messages.repository';

/** How long a report about a message we never stored is kept (one about another app's message never matches). */
const EARLY_REPORT_TTL = '1 hour';

/** A kept report, claimed for its message. */
export type EarlyReport = Pick<DeliveryReport, 'status' | 'error'>;

/** The SQL of `early_delivery_statuses`: reports kept until their message is stored. */
@Injectable()
export class EarlyDeliveryStatusesRepository {
  /** Keeps the report (one per message and status; a second is dropped), pruning reports past their time. */
  async keep(tx: Tx, report: DeliveryReport): Promise<void> {
    const { status, error } = report;
    await tx.query(
      `WITH pruned AS (DELETE FROM early_delivery_statuses WHERE received_at < now() - interval '${EARLY_REPORT_TTL}')
       INSERT INTO early_delivery_statuses (account_id, provider_message_id, status, error_code, error_title)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [report.accountId, report.providerMessageId, status, error?.code ?? null, error?.title ?? null],
    );
  }

  /**
   * The reports kept for a message that now exists, deleted as they are returned, so each is claimed by one
   * caller only (a concurrent claim waits on the rows and then finds them gone). None while the message is not
   * stored (the reports stay kept).
   */
  async claim(tx: Tx, ref: ProviderMessageRef): Promise<EarlyReport[]> {
    const rows: Array<{ status: DeliveryStatus; error_code: number | null; error_title: string | null }> =
      await tx.query(
        // A SELECT over the CTE: TypeORM hands back a DELETE's rows with its count, a SELECT's rows alone.
        `WITH claimed AS (
           DELETE FROM early_delivery_statuses e
            WHERE e.account_id = $1 AND e.provider_message_id = $2
              AND EXISTS (SELECT 1 FROM messages WHERE account_id = $1 AND provider_message_id = $2)
          RETURNING e.status, e.error_code, e.error_title)
         SELECT * FROM claimed`,
        [ref.accountId, ref.providerMessageId],
      );
    return rows.map((row) => ({
      status: row.status,
      error: row.error_code === null ? undefined : { code: row.error_code, title: row.error_title ?? '' },
    }));
  }
}
