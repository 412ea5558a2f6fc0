import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeyedBatcher } from '../../common/concurrency/keyed-batcher';
import { OutboxService } from '../outbox/outbox.service';
import { CallBilling } from '../usage/call-billing.port';
import { finishedCallPayload } from './call-event-payloads';
import { CallEndListeners } from './call-end-listeners';
import { CallsRepository, PlacedCall } from './calls.repository';
import { CallAdmissionQueueJob } from './dispatch/call-admission-queue.job';
import { EndOfCallReport, PlatformEvent } from './voice/voice-provider';
import { CallAnalysis, finalAnalysis } from '../call-outcomes/analysis-plan';
import { recordedAnsweredBy } from '../call-outcomes/answered-by';
import { DEFAULT_VOICEMAIL_POLICY } from '../call-outcomes/voicemail-policy';
import { Call } from './call.entity';
import { CallOutcome } from './calls.repository';
import { ToolCallsService } from './tool-calls.service';
import { inTransaction, Tx } from '../../infra/database/tx';
import { RecordNumberOutcomeCommand } from '../number-health/record-number-outcome.command';

/** Calls recorded as started in one transaction at most. */
const MAX_STARTED_BATCH = 100;
/** Calls of one organization ended in one transaction at most (bounds how long its numbers' rows are held). */
const MAX_ENDED_BATCH = 100;
/** Calls read together by their ends at most. */
const MAX_READ_BATCH = 200;
/** Platform progress events (statuses, transcripts) written together at most. */
const MAX_PROGRESS_BATCH = 200;

/** A live call's progress as its platform reports it. */
type Progress = Extract<PlatformEvent, { kind: 'status' } | { kind: 'conversation' }>;

/** A processing call to end, with what its end records. */
interface Ending {
  callId: string;
  providerCallId: string | null;
  report: EndOfCallReport;
  outcome: CallOutcome;
  recovered: boolean;
}

/** The call an ending moved out of `processing` (null: another ending got there first), or why it failed. */
type EndingResult = { ended: Call | null } | { error: unknown };
/** Every dispatch placed at that moment shares the batch, whatever its organization: no lock is taken but the rows'. */
const ALL_CALLS = '';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Applies what the voice platform reports to the call record. Every write is one conditional statement, so
 * events may arrive late, twice or out of order: statuses never regress, the transcript never shrinks, and a
 * call finishes once (`WHERE status = 'processing'`), settling its minutes and firing exactly one of
 * call.ended / call.failed.
 */
@Injectable()
export class CallEventsService {
  private readonly logger = new Logger(CallEventsService.name);
  /** A burst of dispatches records its platform ids and call.started events in a transaction per batch. */
  private readonly starts = new KeyedBatcher<PlacedCall, void>(
    (_, placed) => this.startedMany(placed),
    MAX_STARTED_BATCH,
  );
  /** The calls whose ends arrive at the same moment are read in one statement, one batch at a time. */
  private readonly reads = new KeyedBatcher<string, Call | null>(
    (_, callIds) => this.calls.findByIds(callIds),
    MAX_READ_BATCH,
  );
  /** The calls of one organization ending at the same moment end in a transaction per batch. */
  private readonly endings = new KeyedBatcher<Ending, EndingResult>((_, batch) => this.endMany(batch), MAX_ENDED_BATCH);
  /**
   * Statuses and transcripts arriving together are written in a statement per kind: a simulated call reports its
   * progress six times, and a statement each was a quarter of all a campaign's (`npm run bench campaign`). One
   * batch at a time, statuses before transcripts, so two batches never lock the same calls' rows in turn.
   */
  private readonly progress = new KeyedBatcher<Progress, void>(
    (_, batch) => this.writeProgress(batch),
    MAX_PROGRESS_BATCH,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly calls: CallsRepository,
    private readonly outbox: OutboxService,
    private readonly billing: CallBilling,
    private readonly admission: CallAdmissionQueueJob,
    private readonly toolCalls: ToolCallsService,
    private readonly numberOutcomes: RecordNumberOutcomeCommand,
    private readonly endListeners: CallEndListeners,
  ) {}

  async apply(event: PlatformEvent): Promise<void> {
    switch (event.kind) {
      case 'status':
      case 'conversation':
        await this.progress.submit(ALL_CALLS, event);
        return;
      case 'utterance':
        await this.calls.appendUtterance(event.callId, event.message);
        return;
      case 'end-of-call':
        await this.finish(event.callId, event.providerCallId, event.report);
        return;
      case 'tool-calls':
        this.toolCalls.runInBackground(event.callId, event.invocations);
        return;
    }
  }

  private async writeProgress(batch: Progress[]): Promise<void[]> {
    await this.calls.advancePlatformStatuses(batch.flatMap((e) => (e.kind === 'status' ? [e] : [])));
    await this.calls.replaceTranscripts(batch.flatMap((e) => (e.kind === 'conversation' ? [e] : [])));
    return batch.map(() => undefined);
  }

  /**
   * The call a platform message is about: by the platform's id (recorded once POST /call returned), else by
   * our id carried in the message's metadata (a message may overtake that response).
   */
  async findCallId(providerCallId: string | null, callId: string | null): Promise<string | null> {
    const ourId = callId && UUID.test(callId) ? callId : null;
    if (!providerCallId && !ourId) return null;
    return this.calls.findIdForPlatform(providerCallId, ourId);
  }

  /** The platform accepted the call: record its id and fire call.started (once, whoever gets here first). */
  async started(callId: string, providerCallId: string): Promise<void> {
    await this.starts.submit(ALL_CALLS, { callId, providerCallId });
  }

  private async startedMany(placed: PlacedCall[]): Promise<void[]> {
    await inTransaction(this.dataSource, (m) => this.markStarted(m, placed));
    return placed.map(() => undefined);
  }

  /**
   * Records the platform ids and fires call.started, once per call: the row's `api_call_id` is the guard. Both
   * the dispatcher (after POST /call returns) and the end of the call (whose report may arrive first under load)
   * come here, so every call the platform accepted fires call.started before its call.ended/call.failed.
   */
  private async markStarted(m: Tx, placed: readonly PlacedCall[]): Promise<void> {
    const calls = await this.calls.markStartedMany(m, placed);
    await this.outbox.recordMany(
      m,
      calls.map((call) => ({
        owner: call,
        type: 'call.started',
        payload: { callId: call.id },
      })),
    );
  }

  /**
   * What the call records beyond the platform's figures (docs/tools.md): who answered, under the call's detection
   * setting; the analysis its plan asked for, structured data checked against the plan's schema (dropped and
   * logged when it does not fit); and the seconds billed, none for a voicemail where no message was left.
   */
  private outcome(call: Call, report: EndOfCallReport): CallOutcome {
    const policy = call.voicemail ?? DEFAULT_VOICEMAIL_POLICY;
    const answeredBy = call.direction === 'outbound' ? recordedAnsweredBy(report.answeredBy, policy.detect) : null;
    let analysis: CallAnalysis | null = null;
    if (call.analysisPlan && !report.failed) {
      const checked = finalAnalysis(call.analysisPlan, report.analysis);
      if (checked.problem) {
        this.logger.warn(
          { callId: call.id, reason: checked.problem },
          'Structured data does not fit the schema; dropped',
        );
      }
      analysis = checked.analysis;
    }
    const messageLeft = policy.action === 'leave-message' && policy.message !== null;
    const billedSeconds = answeredBy === 'voicemail' && !messageLeft ? 0 : report.durationSeconds;
    return { answeredBy, analysis, billedSeconds };
  }

  /**
   * A post-call analysis that arrived after the call ended without it (Retell sends `call_analyzed` after
   * `call_ended`; past RETELL_ANALYSIS_GRACE_MS the call ends without waiting): the call gains it, checked against
   * its plan as at the end, once. No event fires again: `call.ended` has gone.
   */
  async lateAnalysis(callId: string, produced: Partial<CallAnalysis> | null): Promise<void> {
    const call = await this.calls.findById(callId);
    const empty = call?.analysis && Object.values(call.analysis).every((part) => part === null);
    if (!call?.analysisPlan || call.status !== 'ended' || !empty || !produced) return;
    const checked = finalAnalysis(call.analysisPlan, produced);
    if (checked.problem) {
      this.logger.warn({ callId, reason: checked.problem }, 'Structured data does not fit the schema; dropped');
    }
    await this.calls.fillLateAnalysis(callId, checked.analysis);
  }

  /**
   * `recovered`: the report is the platform's call record, read because its end-of-call report had not come
   * (CallReportRecoveryJob); the call then waits for the report, which fills in what the record lacked.
   */
  async finish(
    callId: string,
    providerCallId: string | null,
    report: EndOfCallReport,
    recovered = false,
  ): Promise<void> {
    const call = await this.reads.submit(ALL_CALLS, callId);
    if (!call) return;
    if (call.status !== 'processing') {
      if (!recovered && call.awaitingReport) await this.fillRecovered(call, report);
      return;
    }
    const outcome = this.outcome(call, report);
    const ending = await this.endings.submit(call.organizationId, {
      callId,
      providerCallId,
      report,
      outcome,
      recovered,
    });
    if ('error' in ending) throw ending.error;
    if (!ending.ended) return;
    // Told first: the listeners only start their work (a campaign's step refilling the slot), and waiting for the
    // admission wake-up's round trip delayed every campaign slot's refill by it (`npm run bench campaign`).
    this.endListeners.ended(ending.ended);
    // Its slot is free: calls waiting for admission go on (a lost wake-up is repaired by the sweeper).
    await this.admission.slotFreed(ending.ended.organizationId);
  }

  /**
   * One transaction for a batch of one organization's endings; if it fails, one per ending, so each gets its own
   * outcome. Every call of a number waits for that number's health row (RecordNumberOutcomeCommand), and every
   * settlement for the organization's balance row, both locked until the commit: calls ending together share one
   * hold of each and one commit instead of queueing for them one by one.
   */
  private async endMany(batch: Ending[]): Promise<EndingResult[]> {
    if (batch.length > 1) {
      try {
        const ended = await inTransaction(this.dataSource, (m) => this.end(m, batch));
        return ended.map((c) => ({ ended: c }));
      } catch {
        // Ended one by one below: a transaction that failed wrote nothing.
      }
    }
    const results: EndingResult[] = [];
    for (const e of batch) {
      results.push(
        await inTransaction(this.dataSource, (m) => this.end(m, [e])).then(
          ([ended]) => ({ ended }),
          (error: unknown) => ({ error }),
        ),
      );
    }
    return results;
  }

  /**
   * Moves the calls out of `processing`, each firing call.ended or call.failed, counted for its number and settled
   * once: all of it commits together or not at all, so a crash anywhere leaves the call in `processing` with
   * nothing written, and the retried event ends it; a redelivered event finds it ended and does nothing. Locks are
   * taken in one order: the calls' rows, their numbers' health rows, then (the settlement) their reservations and
   * the organization's balance, last because dispatches wait for it too. A dispatch takes its own calls' rows
   * (never a live call's) before the balance, and a settlement elsewhere (a deferred call's release) no call row.
   */
  private async end(m: Tx, batch: readonly Ending[]): Promise<(Call | null)[]> {
    // The row locks taken here keep the calls in `processing` for the terminal updates below.
    const placed = batch.flatMap((e) =>
      e.providerCallId ? [{ callId: e.callId, providerCallId: e.providerCallId }] : [],
    );
    if (placed.length) await this.markStarted(m, placed);
    const ended = await this.calls.finishMany(m, batch);
    await this.outbox.recordMany(
      m,
      batch.flatMap((e, i) => {
        const call = ended[i];
        if (!call) return [];
        this.logger.debug({ callId: call.id, status: call.status, endedReason: call.endedReason }, 'Call finished');
        return [
          { owner: call, type: e.report.failed ? 'call.failed' : 'call.ended', payload: finishedCallPayload(call) },
        ];
      }),
    );
    // Counted once, with the move that finished the call (docs/number-health.md); in number order, so batches
    // running side by side take the numbers' rows in the same order.
    const outbound = batch
      .map((e, i) => ({ e, call: ended[i] }))
      .filter((x): x is { e: Ending; call: Call } => x.call?.direction === 'outbound')
      .sort((a, b) => a.call.callFrom.localeCompare(b.call.callFrom));
    await this.numberOutcomes.executeMany(
      m,
      outbound.map(({ e, call }) => ({ ...call, status: e.report.failed ? 'error' : 'ended', endedAt: call.endedAt! })),
    );
    // A test-mode call reserved nothing, so there is nothing to settle.
    await this.billing.settleCallsIn(
      m,
      batch.flatMap((e, i) => {
        const call = ended[i];
        if (!call?.livemode) return [];
        const { organizationId, id: callId, direction, apiCallId: providerCallId } = call;
        return [{ organizationId, callId, direction, durationSeconds: e.outcome.billedSeconds, providerCallId }];
      }),
    );
    return ended;
  }

  /**
   * The end-of-call report of a call already finished from the platform's record: its recording, analysis,
   * transcript and cost are kept (the platform's analysis steps may end after the call), and nothing else
   * happens: the minutes were settled and call.ended/call.failed fired when the call finished.
   */
  private async fillRecovered(call: Call, report: EndOfCallReport): Promise<void> {
    const { analysis } = this.outcome(call, report);
    if (await this.calls.fillFromLateReport(call.id, report, analysis)) {
      this.logger.log({ callId: call.id }, 'Late end-of-call report filled a recovered call');
    }
  }
}
