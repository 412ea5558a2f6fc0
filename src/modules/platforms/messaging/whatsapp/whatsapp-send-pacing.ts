import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../../../infra/database/tx';
import { SendPacingRepository } from './send-pacing.repository';
import { WhatsAppGraphClient } from './whatsapp-graph-client';

/** Every this many reservations a process prunes the pacing rows no send is held by any more. */
const PRUNE_EVERY = 1000;

/**
 * The pace of WhatsApp sends, shared by every process through PostgreSQL: per sending phone number
 * (WHATSAPP_SEND_RATE_PER_SECOND, evenly spaced) and per number and recipient (Meta's pair rate limit:
 * WHATSAPP_RECIPIENT_BURST back to back, then one per WHATSAPP_RECIPIENT_INTERVAL_MS).
 */
@Injectable()
export class WhatsAppSendPacing {
  private reservations = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly pacing: SendPacingRepository,
    private readonly graph: WhatsAppGraphClient,
  ) {}

  /** 0 when a send from `phoneNumberId` to `recipient` may go now (its slot taken), else the ms to wait. */
  async take(phoneNumberId: string, recipient: string): Promise<number> {
    const s = this.graph.settings;
    this.reservations += 1;
    const prune = this.reservations % PRUNE_EVERY === 0;
    return inTransaction(this.dataSource, async (tx) => {
      if (prune) await this.pacing.prune(tx);
      return this.pacing.take(tx, [
        { key: `wa-number:${phoneNumberId}`, intervalMs: 1000 / s.sendRatePerSecond, burst: 1 },
        {
          key: `wa-pair:${phoneNumberId}:${recipient}`,
          intervalMs: s.recipientIntervalMs,
          burst: s.recipientBurst,
        },
      ]);
    });
  }
}
