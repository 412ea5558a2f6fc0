import { Injectable } from '@nestjs/common';
import type { Tx } from '../../infra/database/tx';
import { OutboxService } from '../outbox/outbox.service';
import { healthStatus } from './health-status';
import { CallTally, NumberHealthRepository } from './number-health.repository';

/** What a finished outbound call tells about the number it was placed from. */
export interface FinishedOutboundCall {
  organizationId: string;
  livemode: boolean;
  callFrom: string;
  status: 'ended' | 'error';
  answeredBy: string | null;
  durationSeconds: number | null;
  endedAt: Date;
}

/** How one finished call counts: failed (status error), answered by someone or something, or not answered. */
export function tallyOf(call: FinishedOutboundCall): CallTally {
  const failed = call.status === 'error';
  const connected = !failed && call.answeredBy !== null;
  return {
    human: !failed && call.answeredBy === 'human' ? 1 : 0,
    voicemail: !failed && call.answeredBy === 'voicemail' ? 1 : 0,
    notAnswered: !failed && call.answeredBy === null ? 1 : 0,
    failed: failed ? 1 : 0,
    connected: connected ? 1 : 0,
    talkSeconds: connected ? (call.durationSeconds ?? 0) : 0,
  };
}

/**
 * Counts a finished outbound call for its number, in the transaction that finished it (so each call counts
 * exactly once): its day, its place among the number's last calls, and the number's status, which fires
 * `phone_number.health_changed` when it moves. Calls from a number the organization no longer has count nowhere.
 */
@Injectable()
export class RecordNumberOutcomeCommand {
  constructor(
    private readonly health: NumberHealthRepository,
    private readonly outbox: OutboxService,
  ) {}

  async execute(tx: Tx, call: FinishedOutboundCall): Promise<void> {
    const recorded = await this.health.record(tx, call, call.callFrom, call.endedAt, tallyOf(call));
    if (!recorded) return;
    const { phoneNumberId } = recorded;
    const status = healthStatus(recorded.recent, recorded.baseline);
    if (status === recorded.status) return;
    await this.health.setStatus(tx, phoneNumberId, call.livemode, status);
    await this.outbox.record(tx, call, 'phone_number.health_changed', {
      phoneNumberId,
      status,
      previousStatus: recorded.status,
    });
  }
}
