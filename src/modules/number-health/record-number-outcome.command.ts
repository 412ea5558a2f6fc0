import { Injectable } from '@nestjs/common';
import type { Tx } from '../../infra/database/tx';
import { OutboxService } from '../outbox/outbox.service';
import { AnswerCounts, healthStatus, RECENT_WINDOW } from './health-status';
import type { NumberHealthStatus } from './number-health.entity';
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
 * Counts finished outbound calls for their numbers, in the transaction that finished them (so each call counts
 * exactly once): its day, its place among the number's last calls, and the number's status, which fires
 * `phone_number.health_changed` each time it moves. Calls from a number the organization no longer has count
 * nowhere.
 */
@Injectable()
export class RecordNumberOutcomeCommand {
  constructor(
    private readonly health: NumberHealthRepository,
    private readonly outbox: OutboxService,
  ) {}

  async execute(tx: Tx, call: FinishedOutboundCall): Promise<void> {
    await this.executeMany(tx, [call]);
  }

  /**
   * Counts calls in the order given, each number's calls together (one statement for them, two when there are
   * several): each call's status is decided on the window and baseline as that call left them, exactly as if
   * they had been counted one by one, so every move still fires its event. Numbers are taken in the order their
   * first calls come; a caller sorts by number so that transactions running side by side lock them in one order.
   */
  async executeMany(tx: Tx, calls: readonly FinishedOutboundCall[]): Promise<void> {
    const byNumber = new Map<string, FinishedOutboundCall[]>();
    for (const call of calls) {
      const key = `${call.organizationId} ${call.livemode} ${call.callFrom}`;
      const same = byNumber.get(key);
      if (same) same.push(call);
      else byNumber.set(key, [call]);
    }
    for (const same of byNumber.values()) await this.countForNumber(tx, same);
  }

  private async countForNumber(tx: Tx, calls: readonly FinishedOutboundCall[]): Promise<void> {
    const [first] = calls;
    // The window before these calls is needed only for the statuses of all but the last.
    const before = calls.length > 1 ? await this.health.lockRecent(tx, first, first.callFrom) : undefined;
    if (before === null) return;
    const tallies = calls.map(tallyOf);
    const recorded = await this.health.recordMany(
      tx,
      first,
      first.callFrom,
      calls.map((c, i) => ({ endedAt: c.endedAt, tally: tallies[i] })),
    );
    if (!recorded) return;
    const { phoneNumberId } = recorded;
    const statuses = statusesAfterEach(calls, tallies, before?.recent ?? [], recorded);
    const moves: { call: FinishedOutboundCall; status: NumberHealthStatus; previousStatus: NumberHealthStatus }[] = [];
    let status = recorded.status;
    calls.forEach((call, i) => {
      if (statuses[i] !== status) moves.push({ call, status: statuses[i], previousStatus: status });
      status = statuses[i];
    });
    if (!moves.length) return;
    await this.health.setStatus(tx, phoneNumberId, first.livemode, status);
    // One statement per move, as the moves happened: each its own occurred_at, so they read back in order.
    for (const move of moves) {
      await this.outbox.record(tx, move.call, 'phone_number.health_changed', {
        phoneNumberId,
        status: move.status,
        previousStatus: move.previousStatus,
      });
    }
  }
}

/**
 * The number's status after each call: the last call's from what the statement returned; each earlier one's from
 * the window before the calls (`before`) with the calls up to it appended, and the baseline less the later calls
 * that count in it.
 */
function statusesAfterEach(
  calls: readonly FinishedOutboundCall[],
  tallies: readonly CallTally[],
  before: readonly boolean[],
  recorded: { recent: boolean[]; baseline: AnswerCounts; baselineDays: string[] },
): NumberHealthStatus[] {
  const inBaseline = new Set(recorded.baselineDays);
  const recent = [...before, ...tallies.map((t) => t.human === 1)];
  const baseline = { ...recorded.baseline };
  const statuses: NumberHealthStatus[] = [];
  for (let i = calls.length - 1; i >= 0; i--) {
    const window =
      i === calls.length - 1 ? recorded.recent : recent.slice(0, before.length + i + 1).slice(-RECENT_WINDOW);
    statuses[i] = healthStatus(window, baseline);
    if (inBaseline.has(calls[i].endedAt.toISOString().slice(0, 10))) {
      baseline.placed -= 1;
      baseline.human -= tallies[i].human;
    }
  }
  return statuses;
}
