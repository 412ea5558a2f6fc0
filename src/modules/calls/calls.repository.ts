import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { World, worldParams, worldSql, worldWhere } from '../../common/auth/world';
import type { ReferenceTarget } from '../../common/references/reference-registry';
import { queryEntities, toEntities } from '../../infra/database/entity-rows';
import { insertReturningAll } from '../../infra/database/entity-insert';
import type { Statement } from '../../infra/database/statement';
import { ApiCallStatus, Call, PlatformAttempt, QUEUED_CALL_STATUSES, TranscriptMessage } from './call.entity';
import { CALL_MOVES, INITIAL_CALL_STATUSES, LIVE_CALL_STATUS, statusIn } from './call-transitions';
import { EndOfCallReport } from './voice/voice-provider';
import type { CallAnalysis } from '../call-outcomes/analysis-plan';
import type { VoicePlatform } from '../../infra/config/platforms';
import type { AnsweredBy } from '../call-outcomes/answered-by';
import type { CallTool, ToolCallRecord } from '../tools/call-tools';

/** A call as its creator resolved it; what it leaves out takes the column's default. */
export type NewCall = Pick<
  Call,
  'id' | 'organizationId' | 'status' | 'direction' | 'callFrom' | 'callTo' | 'platform'
> &
  Partial<Omit<Call, 'createdAt' | 'updatedAt'>>;

/** What a finished call records beyond the platform's report (CallEventsService decides it). */
export interface CallOutcome {
  answeredBy: AnsweredBy | null;
  analysis: CallAnalysis | null;
  /** The talk time billed: the report's, except none for a voicemail where no message was left. */
  billedSeconds: number | null;
}

/** A live call's end as `finish` records it. */
export interface CallFinish {
  callId: string;
  providerCallId: string | null;
  report: EndOfCallReport;
  outcome: Pick<CallOutcome, 'answeredBy' | 'analysis'>;
  /** The report is the platform's call record (report recovery): the call waits for the real report. */
  recovered: boolean;
}

/** A campaign's calls of one case version, counted (the A/B report, docs/testing-your-assistant.md). */
export interface CaseVersionTotals {
  caseVersion: number | null;
  calls: number;
  /** Answered by a person. */
  answered: number;
  voicemail: number;
  successTrue: number;
  successFalse: number;
  talkSeconds: number;
  providerCostUsd: number;
}

export interface DispatchFailure {
  id: string;
  endedReason: string;
}

/** A call the voice platform accepted, with the platform's id for it. */
export interface PlacedCall {
  callId: string;
  providerCallId: string;
}

export interface CallListFilters {
  status?: string;
  contactId?: string;
  caseId?: string;
  from?: string;
  to?: string;
  /** E.164: calls to or from this number (the console's search). */
  number?: string;
}

/** Statuses compared in SQL, from the transition table (call-transitions.ts). */
const WHERE = {
  waiting: statusIn(CALL_MOVES.claim.from),
  claimed: statusIn(CALL_MOVES.start.from),
  claimedAliased: statusIn(CALL_MOVES.start.from, 'c.status'),
  live: statusIn([LIVE_CALL_STATUS]),
  liveAliased: statusIn([LIVE_CALL_STATUS], 'c.status'),
  failable: statusIn(CALL_MOVES.failDispatch.from, 'c.status'),
  deferrable: statusIn(CALL_MOVES.defer.from),
};
/** A call the platform asked us to bring back later is not due before then. */
/** Blocked attempts' platform ids kept per call (Call.blockedApiCallIds): late messages come within minutes. */
export const BLOCKED_ATTEMPTS_KEPT = 20;

const NOT_HELD_BACK = `(retry_at IS NULL OR retry_at <= now() + interval '1 second')`;
/** The waiting status a call returns to when its claim is given back. */
const BACK_TO_WAITING = `CASE WHEN scheduled_at IS NULL THEN 'new' ELSE 'scheduled' END`;

/** The order platform statuses move in; a status at or below the current one is a late or repeated event. */
const STATUS_ORDER = `ARRAY['queued','ringing','in-progress','forwarding','ended']`;
const rank = (expr: string) => `COALESCE(array_position(${STATUS_ORDER}, ${expr}), 0)`;

/**
 * The SQL of `calls`, and the only place a call is written. Every status move is one conditional statement
 * named after a move of the transition table (CALL_MOVES), so a race between two moves is decided by whichever
 * commits first; the loser matches no row and gets nothing back. Methods that must share the caller's
 * transaction take it as their first parameter (`tx`).
 */
@Injectable()
export class CallsRepository {
  constructor(private readonly dataSource: DataSource) {}

  // ---- creation

  /** Inserts a new call (outbound `new`/`scheduled`, inbound `processing`), returned with its defaults. */
  async insert(tx: EntityManager, values: NewCall): Promise<Call> {
    const { sql, params } = this.insertStatement(tx, values);
    const [call] = await this.rows(tx, sql, params);
    return call;
  }

  /** Several calls in one statement (a dialer's step), returned in the given order. */
  async insertMany(tx: EntityManager, values: readonly NewCall[]): Promise<Call[]> {
    if (!values.length) return [];
    const { sql, params } = this.insertStatement(tx, ...values);
    const inserted = new Map((await this.rows(tx, sql, params)).map((c) => [c.id, c]));
    return values.map((v) => inserted.get(v.id)!);
  }

  /**
   * The insert of `insert` (or of several calls) as a statement for the caller to run (with its event, in one
   * round trip: the outbox's `recordWithChange`); `RETURNING *` hands back the rows with their defaults, so no
   * read follows the insert.
   */
  insertStatement(manager: EntityManager, ...values: NewCall[]): Statement {
    for (const v of values) {
      if (!INITIAL_CALL_STATUSES.includes(v.status)) throw new Error(`A call cannot start as ${v.status}`);
    }
    return insertReturningAll(manager, Call, values);
  }

  /** The call of a row `insertStatement` returned (its columns as PostgreSQL names them). */
  entityOf(manager: EntityManager, row: Record<string, unknown>): Call {
    return toEntities(manager, Call, [row])[0];
  }

  // ---- status moves (CALL_MOVES)

  /**
   * `new|scheduled -> lock-processing` for a due call: one statement, so any number of workers claim it once.
   * The 1 s slack absorbs a delayed job firing a hair early; a call not yet due stays for the sweeper.
   */
  async claim(callId: string): Promise<Call | null> {
    const [claimed] = await this.claimMany([callId]);
    return claimed ?? null;
  }

  /** `claim` for several calls in one statement (dispatches running side by side); the calls claimed. */
  claimMany(callIds: readonly string[]): Promise<Call[]> {
    return this.rows(
      this.dataSource.manager,
      `UPDATE calls SET status = 'lock-processing', updated_at = now()
        WHERE id = ANY($1) AND ${WHERE.waiting} AND ${NOT_HELD_BACK}
          AND (scheduled_at IS NULL OR scheduled_at <= now() + interval '1 second')
        RETURNING *`,
      [callIds],
    );
  }

  /** `new|scheduled -> cancelled`, for the world's own call; null when it was claimed or is gone. */
  async cancel(tx: EntityManager, world: World, callId: string): Promise<Call | null> {
    const [call] = await this.rows(
      tx,
      `UPDATE calls SET status = 'cancelled', updated_at = now()
        WHERE id = $1 AND ${worldSql(undefined, 2)} AND ${WHERE.waiting} RETURNING *`,
      [callId, ...worldParams(world)],
    );
    return call ?? null;
  }

  /**
   * `lock-processing -> processing`, stamping `dispatched_at`. Requires the claim: a call whose stale claim the
   * sweeper released meanwhile is left out (another dispatch owns it now).
   */
  start(tx: EntityManager, callIds: readonly string[]): Promise<Call[]> {
    return this.rows(
      tx,
      `UPDATE calls SET status = 'processing', dispatched_at = now(), retry_at = NULL, updated_at = now()
        WHERE id = ANY($1) AND ${WHERE.claimed} RETURNING *`,
      [callIds],
    );
  }

  /**
   * `lock-processing -> new|scheduled` for calls admission defers. `updated_at` is left at the claim's time,
   * which the sweeper's grace check reads (unlike releaseStale, which stamps it).
   */
  async requeue(tx: EntityManager, callIds: readonly string[]): Promise<void> {
    await tx.query(
      `UPDATE calls SET status = ${BACK_TO_WAITING}
        WHERE id = ANY($1) AND ${WHERE.claimed}`,
      [callIds],
    );
  }

  /**
   * `processing -> new|scheduled` for a call the platform did not take (no platform id yet, or the id of the
   * attempt it turned away afterwards: Retell ends a call it had no room for with `concurrency_limit_reached`),
   * held back until `retryAt`; true when this statement did it. Its minute stays reserved for the next dispatch.
   */
  async defer(
    callId: string,
    retryAt: Date,
    blockedApiCallId: string | null = null,
    unavailable: { attempt: PlatformAttempt; unconfirmed: boolean } | null = null,
  ): Promise<boolean> {
    // The blocked attempt's id joins the latest BLOCKED_ATTEMPTS_KEPT (a call deferred for hours stays bounded).
    // A failed attempt of an unavailable platform joins the call's attempts (bounded by PLATFORM_WAIT_MAX_ATTEMPTS);
    // one that may have placed the call keeps the earliest such time, from which the platform is searched.
    const [rows] = (await this.dataSource.query(
      `UPDATE calls SET status = ${BACK_TO_WAITING}, dispatched_at = NULL, retry_at = $2, updated_at = now(),
              blocked_api_call_ids = CASE WHEN $3::text IS NULL THEN blocked_api_call_ids
                ELSE (array_append(blocked_api_call_ids, $3::text))[greatest(1, cardinality(blocked_api_call_ids) + 2 - $4):]
              END,
              platform_attempts = CASE WHEN $5::jsonb IS NULL THEN platform_attempts
                ELSE platform_attempts || jsonb_build_array($5::jsonb) END,
              unconfirmed_placement_at = CASE WHEN $6 THEN COALESCE(unconfirmed_placement_at, ($5::jsonb ->> 'at')::timestamptz)
                ELSE unconfirmed_placement_at END,
              api_call_status = CASE WHEN api_call_id IS NULL THEN api_call_status END, api_call_id = NULL
        WHERE id = $1 AND ${WHERE.deferrable} AND (api_call_id IS NULL OR api_call_id = $3) RETURNING id`,
      [
        callId,
        retryAt,
        blockedApiCallId,
        BLOCKED_ATTEMPTS_KEPT,
        unavailable ? JSON.stringify(unavailable.attempt) : null,
        unavailable?.unconfirmed ?? false,
      ],
    )) as [Array<{ id: string }>, number];
    return rows.length > 0;
  }

  /** `lock-processing -> new|scheduled` for claims older than `staleAfterSeconds`; their ids. */
  async releaseStale(staleAfterSeconds: number): Promise<string[]> {
    const [rows] = (await this.dataSource.query(
      `UPDATE calls SET status = ${BACK_TO_WAITING}, updated_at = now()
        WHERE ${WHERE.claimed} AND updated_at < now() - make_interval(secs => $1) RETURNING id`,
      [staleAfterSeconds],
    )) as [Array<{ id: string }>, number];
    return rows.map((r) => r.id);
  }

  /**
   * Replaces the tools of claimed calls (status kept, `lock-processing` only): the dispatcher drops transfer
   * destinations the organization's rules refuse now (docs/contracts/destinations.md) before the call is placed.
   */
  async restrictClaimedTools(
    tx: EntityManager,
    updates: ReadonlyArray<{ id: string; tools: CallTool[] }>,
  ): Promise<void> {
    if (!updates.length) return;
    await tx.query(
      `UPDATE calls c SET tools = u.tools
         FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, tools jsonb)
        WHERE c.id = u.id AND ${WHERE.claimedAliased}`,
      [JSON.stringify(updates)],
    );
  }

  /**
   * A live call moves to its number's fallback platform before it is placed there (failover): the platform and
   * the number's id on it, and the failed attempts; null when the call is no longer being placed.
   */
  async switchPlatform(
    callId: string,
    platform: VoicePlatform,
    providerNumberId: string,
    attempts: readonly PlatformAttempt[],
  ): Promise<Call | null> {
    const [call] = await this.rows(
      this.dataSource.manager,
      `UPDATE calls SET platform = $2, provider_number_id = $3, platform_attempts = $4::jsonb, updated_at = now()
        WHERE id = $1 AND status = 'processing' AND api_call_id IS NULL RETURNING *`,
      [callId, platform, providerNumberId, JSON.stringify(attempts)],
    );
    return call ?? null;
  }

  /** `lock-processing|processing -> error` with each call's endedReason (refused or unbillable at dispatch). */
  failDispatch(tx: EntityManager, failures: readonly DispatchFailure[]): Promise<Call[]> {
    return this.rows(
      tx,
      `UPDATE calls c SET status = 'error', ended_reason = b.reason, dispatched_at = NULL, ended_at = now(),
              updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS b(id uuid, reason text)
        WHERE c.id = b.id AND ${WHERE.failable} RETURNING c.*`,
      [JSON.stringify(failures.map((f) => ({ id: f.id, reason: f.endedReason })))],
    );
  }

  /**
   * `processing -> ended|error` with the platform's report, once: null when the call had already left
   * `processing`. The transcript is only ever replaced by a longer one.
   */
  async finish(
    tx: EntityManager,
    callId: string,
    providerCallId: string | null,
    report: EndOfCallReport,
    outcome: Pick<CallOutcome, 'answeredBy' | 'analysis'> = { answeredBy: null, analysis: null },
    recovered = false,
  ): Promise<Call | null> {
    const [ended] = await this.finishMany(tx, [{ callId, providerCallId, report, outcome, recovered }]);
    return ended;
  }

  /**
   * `finish` for several calls in one statement (calls ending together), each result in its ending's place. A call
   * named twice finishes with its first ending; the second gets null, as it would one statement later.
   */
  async finishMany(tx: EntityManager, endings: readonly CallFinish[]): Promise<(Call | null)[]> {
    const first = new Map<string, CallFinish>();
    for (const e of endings) if (!first.has(e.callId)) first.set(e.callId, e);
    const finished = await this.rows(
      tx,
      `UPDATE calls c SET status = e.status, api_call_status = 'ended',
              api_call_id = COALESCE(c.api_call_id, e.provider_call_id), ended_reason = e.ended_reason,
              result_status = e.result_status, duration_seconds = e.duration_seconds, recording_url = e.recording_url,
              transcript = CASE WHEN jsonb_array_length(c.transcript) < jsonb_array_length(e.transcript)
                                THEN e.transcript ELSE c.transcript END,
              provider_cost = e.provider_cost, provider_summary = e.provider_summary, answered_by = e.answered_by,
              analysis = e.analysis, transfer = COALESCE(e.transfer, c.transfer), awaiting_report = e.awaiting_report,
              ended_at = now(), updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS e(id uuid, status text, provider_call_id text, ended_reason text,
              result_status text, duration_seconds double precision, recording_url text, transcript jsonb,
              provider_cost double precision, provider_summary text, answered_by text, analysis jsonb, transfer jsonb,
              awaiting_report boolean)
        WHERE c.id = e.id AND ${WHERE.liveAliased} RETURNING c.*`,
      [
        JSON.stringify(
          [...first.values()].map(({ callId, providerCallId, report, outcome, recovered }) => ({
            id: callId,
            status: report.failed ? 'error' : 'ended',
            provider_call_id: providerCallId,
            ended_reason: report.endedReason,
            result_status: report.resultStatus,
            duration_seconds: report.durationSeconds,
            recording_url: report.recordingUrl,
            transcript: report.transcript,
            provider_cost: report.providerCost ?? null,
            provider_summary: report.summary ?? null,
            answered_by: outcome.answeredBy,
            analysis: outcome.analysis,
            transfer: report.transfer ? { ...report.transfer, at: new Date().toISOString() } : null,
            awaiting_report: recovered,
          })),
        ),
      ],
    );
    const byId = new Map(finished.map((c) => [c.id, c]));
    return endings.map((e) => (first.get(e.callId) === e ? (byId.get(e.callId) ?? null) : null));
  }

  /**
   * The end-of-call report of a call finished without it (report recovery): what the platform's record lacked
   * then (recording, analysis, cost, summary, a longer transcript) is taken from the report where it has them,
   * once (`awaiting_report` is cleared). Status, figures and billing stay as they were settled. Whether this
   * statement filled the call.
   */
  async fillFromLateReport(
    callId: string,
    report: EndOfCallReport,
    analysis: CallOutcome['analysis'],
  ): Promise<boolean> {
    // An UPDATE answers [rows, affected] through TypeORM.
    const [, affected]: [unknown[], number] = await this.dataSource.query(
      `UPDATE calls SET recording_url = COALESCE($2, recording_url),
              transcript = CASE WHEN jsonb_array_length(transcript) < jsonb_array_length($3::jsonb)
                                THEN $3::jsonb ELSE transcript END,
              provider_cost = COALESCE($4, provider_cost), provider_summary = COALESCE($5, provider_summary),
              analysis = COALESCE($6::jsonb, analysis), awaiting_report = false, updated_at = now()
        WHERE id = $1 AND awaiting_report`,
      [
        callId,
        report.recordingUrl,
        JSON.stringify(report.transcript),
        report.providerCost ?? null,
        report.summary ?? null,
        analysis === null ? null : JSON.stringify(analysis),
      ],
    );
    return affected > 0;
  }

  // ---- updates of a live call (status stays `processing`)

  /**
   * Records the platform's id on a live outbound call that has none yet; the call when this statement was the
   * one that did it (so call.started fires once), else null. Its row lock holds the call in `processing` until
   * the caller's transaction ends.
   */
  async markStarted(tx: EntityManager, callId: string, providerCallId: string): Promise<Call | null> {
    const [call] = await this.markStartedMany(tx, [{ callId, providerCallId }]);
    return call ?? null;
  }

  /** `markStarted` for several calls in one statement; the calls this statement marked. */
  markStartedMany(tx: EntityManager, placed: readonly PlacedCall[]): Promise<Call[]> {
    return this.rows(
      tx,
      `UPDATE calls c SET api_call_id = p.provider_call_id,
              api_call_status = COALESCE(c.api_call_status, 'queued'), updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, provider_call_id text)
        WHERE c.id = p.id AND c.api_call_id IS NULL AND ${WHERE.liveAliased}
          AND c.direction = 'outbound'
        RETURNING c.*`,
      [JSON.stringify(placed.map((p) => ({ id: p.callId, provider_call_id: p.providerCallId })))],
    );
  }

  /**
   * An analysis that arrived after the call ended without one (Retell's late `call_analyzed`; the call ended with
   * an empty analysis, every part null): filled once, on an ended call only, never over one it already has.
   */
  async fillLateAnalysis(callId: string, analysis: CallAnalysis): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE calls SET analysis = $2::jsonb, updated_at = now()
        WHERE id = $1 AND status = 'ended' AND analysis IS NOT NULL
          AND analysis->>'summary' IS NULL AND analysis->>'structuredData' IS NULL AND analysis->>'success' IS NULL
        RETURNING id`,
      [callId, JSON.stringify(analysis)],
    )) as [Array<{ id: string }>, number];
    return rows.length > 0;
  }

  /**
   * The platforms' statuses of live calls, each only forward (a late or repeated event changes nothing), in one
   * statement; of several for one call, the furthest.
   */
  async advancePlatformStatuses(updates: ReadonlyArray<{ callId: string; status: ApiCallStatus }>): Promise<void> {
    if (!updates.length) return;
    await this.dataSource.query(
      `UPDATE calls c SET api_call_status = u.status, updated_at = now()
         FROM (SELECT DISTINCT ON (id) id, status FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, status text)
                ORDER BY id, ${rank('status')} DESC) u
        WHERE c.id = u.id AND ${WHERE.liveAliased} AND ${rank('c.api_call_status')} < ${rank('u.status')}`,
      [JSON.stringify(updates.map((u) => ({ id: u.callId, status: u.status })))],
    );
  }

  /**
   * Live calls' whole conversations so far, each only if longer than what is recorded (the transcript never
   * shrinks), in one statement; of several for one call, the longest.
   */
  async replaceTranscripts(
    updates: ReadonlyArray<{ callId: string; messages: readonly TranscriptMessage[] }>,
  ): Promise<void> {
    if (!updates.length) return;
    await this.dataSource.query(
      `UPDATE calls c SET transcript = u.transcript, updated_at = now()
         FROM (SELECT DISTINCT ON (id) id, transcript FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, transcript jsonb)
                ORDER BY id, jsonb_array_length(transcript) DESC) u
        WHERE c.id = u.id AND ${WHERE.liveAliased} AND jsonb_array_length(c.transcript) < jsonb_array_length(u.transcript)`,
      [JSON.stringify(updates.map((u) => ({ id: u.callId, transcript: u.messages })))],
    );
  }

  /** One line, appended unless an equal line is already there (a redelivery, or a conversation update had it). */
  async appendUtterance(callId: string, message: TranscriptMessage): Promise<void> {
    await this.dataSource.query(
      `UPDATE calls SET transcript = transcript || jsonb_build_array($2::jsonb), updated_at = now()
        WHERE id = $1 AND ${WHERE.live} AND NOT transcript @> jsonb_build_array($2::jsonb)`,
      [callId, JSON.stringify(message)],
    );
  }

  // ---- reads

  findById(callId: string): Promise<Call | null> {
    return this.dataSource.manager.findOneBy(Call, { id: callId });
  }

  /** Calls by id in one statement, each in its id's place (null where there is none). */
  async findByIds(callIds: readonly string[]): Promise<(Call | null)[]> {
    const found = await this.rows(this.dataSource.manager, `SELECT * FROM calls WHERE id = ANY($1)`, [callIds]);
    const byId = new Map(found.map((c) => [c.id, c]));
    return callIds.map((id) => byId.get(id) ?? null);
  }

  /**
   * Appends one tool invocation to a live call, unless the call already has `max` of them or one with the same
   * id (a redelivered or replayed invocation); whether it was recorded.
   */
  async appendToolCall(callId: string, record: ToolCallRecord, max: number): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE calls SET tool_calls = tool_calls || jsonb_build_array($2::jsonb), updated_at = now()
        WHERE id = $1 AND ${WHERE.live} AND jsonb_array_length(tool_calls) < $3
          AND NOT tool_calls @> jsonb_build_array(jsonb_build_object('id', $4::text))
        RETURNING id`,
      [callId, JSON.stringify(record), max, record.id],
    )) as [Array<{ id: string }>, number];
    return rows.length > 0;
  }

  /** What a simulated call's timeline is built from: the number and the resolved script, nothing more. */
  findScript(
    callId: string,
  ): Promise<Pick<
    Call,
    'id' | 'callTo' | 'systemPrompt' | 'firstMessage' | 'voicemail' | 'analysisPlan' | 'tools'
  > | null> {
    return this.dataSource.manager.findOne(Call, {
      where: { id: callId },
      select: {
        id: true,
        callTo: true,
        systemPrompt: true,
        firstMessage: true,
        voicemail: true,
        analysisPlan: true,
        tools: true,
      },
    });
  }

  findOwned(world: World, callId: string): Promise<Call | null> {
    return this.dataSource.manager.findOneBy(Call, { id: callId, ...worldWhere(world) });
  }

  findByProviderCallId(providerCallId: string): Promise<Call | null> {
    return this.dataSource.manager.findOneBy(Call, { apiCallId: providerCallId });
  }

  /**
   * The call a platform message is about: by the platform's id, else by our id (a message may overtake the
   * response that told us the platform's id), unless the platform's id is one of the call's blocked attempts.
   */
  async findIdForPlatform(providerCallId: string | null, callId: string | null): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM calls
        WHERE ($1::text IS NOT NULL AND api_call_id = $1)
           OR (id = $2::uuid AND NOT coalesce($1::text = ANY(blocked_api_call_ids), false))
        ORDER BY (api_call_id = $1) DESC NULLS LAST LIMIT 1`,
      [providerCallId, callId],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Due waiting calls the sweeper re-enqueues: those untouched for `graceSeconds` (younger rows may simply not
   * have had their job added yet) plus the ones it just released.
   */
  async findDue(graceSeconds: number, released: readonly string[], limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM calls
        WHERE ${WHERE.waiting} AND (scheduled_at IS NULL OR scheduled_at <= now() + interval '1 second')
          AND ${NOT_HELD_BACK} AND (updated_at < now() - make_interval(secs => $2) OR id = ANY($1::uuid[]))
        ORDER BY scheduled_at NULLS FIRST LIMIT $3`,
      [released, graceSeconds, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Calls a dead worker left in `processing` without a platform id for longer than `staleAfterSeconds`. */
  async findAbandoned(staleAfterSeconds: number, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM calls
        WHERE ${WHERE.live} AND api_call_id IS NULL AND dispatched_at < now() - make_interval(secs => $1)
        LIMIT $2`,
      [staleAfterSeconds, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Live calls dispatched (or, inbound, created) more than `ageMs` ago, oldest dispatch first. */
  findOverdue(ageMs: number, limit: number): Promise<Call[]> {
    return this.rows(
      this.dataSource.manager,
      `SELECT * FROM calls
        WHERE ${WHERE.live} AND COALESCE(dispatched_at, created_at) < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY dispatched_at LIMIT $2`,
      [ageMs, limit],
    );
  }

  /** An organization's oldest due outbound calls waiting for a slot. */
  async findAdmissible(organizationId: string, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM calls
        WHERE organization_id = $1 AND ${WHERE.waiting} AND direction = 'outbound'
          AND (scheduled_at IS NULL OR scheduled_at <= now()) AND ${NOT_HELD_BACK}
        ORDER BY COALESCE(scheduled_at, created_at), id LIMIT $2`,
      [organizationId, limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The oldest due outbound call on a pooled platform waiting in each organization, oldest organization first,
   * up to `limit`: whom to wake when a slot of that platform's shared pool frees (one per organization, so the
   * pool goes round the organizations that wait).
   */
  async findAdmissiblePooledAcrossOrganizations(limit: number, platform: VoicePlatform): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM (
         SELECT DISTINCT ON (organization_id) id, COALESCE(scheduled_at, created_at) AS due FROM calls
          WHERE ${WHERE.waiting} AND direction = 'outbound' AND platform = $2
            AND (scheduled_at IS NULL OR scheduled_at <= now()) AND ${NOT_HELD_BACK}
          ORDER BY organization_id, COALESCE(scheduled_at, created_at), id) AS oldest
        ORDER BY due LIMIT $1`,
      [limit, platform],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The public list's query, newest first by the caller's keyset. `lock-processing` reads as new/scheduled
   * (publicStatus), so the status filters follow the same rule. One world's calls only.
   */
  search(world: World, filters: CallListFilters): SelectQueryBuilder<Call> {
    const qb = this.dataSource.manager.createQueryBuilder(Call, 'c').where(worldSql('c'), worldWhere(world));
    if (filters.status === 'new') {
      qb.andWhere(`(c.status = 'new' OR (c.status = 'lock-processing' AND c.scheduledAt IS NULL))`);
    } else if (filters.status === 'scheduled') {
      qb.andWhere(`(c.status = 'scheduled' OR (c.status = 'lock-processing' AND c.scheduledAt IS NOT NULL))`);
    } else if (filters.status) qb.andWhere('c.status = :status', { status: filters.status });
    if (filters.contactId) qb.andWhere('c.contactId = :contactId', { contactId: filters.contactId });
    if (filters.caseId) qb.andWhere('c.caseId = :caseId', { caseId: filters.caseId });
    if (filters.from) qb.andWhere('c.createdAt >= :from', { from: new Date(filters.from) });
    if (filters.to) qb.andWhere('c.createdAt < :to', { to: new Date(filters.to) });
    if (filters.number) qb.andWhere('(c.callTo = :number OR c.callFrom = :number)', { number: filters.number });
    return qb;
  }

  /** A world's calls created since `since`, counted by status and whether they carry a time. */
  async countByStatusSince(
    world: World,
    since: Date,
  ): Promise<Array<{ status: Call['status']; scheduled: boolean; n: number }>> {
    const rows: Array<{ status: Call['status']; scheduled: boolean; n: string }> = await this.dataSource.manager
      .createQueryBuilder(Call, 'c')
      .select('c.status', 'status')
      .addSelect('c.scheduledAt IS NOT NULL', 'scheduled')
      .addSelect('count(*)', 'n')
      .where(`${worldSql('c')} AND c.createdAt >= :since`, { ...worldWhere(world), since })
      .groupBy('c.status')
      .addGroupBy('c.scheduledAt IS NOT NULL')
      .getRawMany();
    return rows.map((r) => ({ status: r.status, scheduled: r.scheduled, n: Number(r.n) }));
  }

  /** The world's calls of one campaign, counted per case version in one grouped scan of the campaign's calls. */
  async totalsByCaseVersion(world: World, campaignId: string): Promise<CaseVersionTotals[]> {
    return this.dataSource.query(
      `SELECT case_version AS "caseVersion", count(*)::int AS calls,
              count(*) FILTER (WHERE answered_by = 'human')::int AS answered,
              count(*) FILTER (WHERE answered_by = 'voicemail')::int AS voicemail,
              count(*) FILTER (WHERE analysis->>'success' = 'true')::int AS "successTrue",
              count(*) FILTER (WHERE analysis->>'success' = 'false')::int AS "successFalse",
              COALESCE(sum(duration_seconds), 0)::float8 AS "talkSeconds",
              COALESCE(sum(provider_cost), 0)::float8 AS "providerCostUsd"
         FROM calls
        WHERE ${worldSql(undefined, 1)} AND campaign_id = $3
        GROUP BY case_version`,
      [...worldParams(world), campaignId],
    );
  }

  /** Queued calls that still refer to a case or an outbound assistant (they block its delete). */
  countQueuedReferencing(tx: EntityManager, organizationId: string, target: ReferenceTarget): Promise<number> {
    return tx.countBy(Call, { organizationId, ...target, status: In([...QUEUED_CALL_STATUSES]) });
  }

  /** SQL returning `calls` rows (`RETURNING *`, `SELECT *`) as typed entities. */
  private rows(manager: EntityManager, sql: string, params: unknown[]): Promise<Call[]> {
    return queryEntities(manager, Call, sql, params);
  }
}
