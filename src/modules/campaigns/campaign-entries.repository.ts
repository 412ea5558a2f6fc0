import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryEntities } from '../../infra/database/entity-rows';
import { CampaignEntry, EntryStatus } from './campaign-entry.entity';
import { ENTRY_MOVES, EntryOutcomeStatus, OPEN_ENTRY_STATUSES, entryStatusIn } from './campaign-entry-transitions';

export interface NewEntry {
  id: string;
  to: string;
  contactId: string | null;
  variableValues: Record<string, string> | null;
  timeZone: string;
}

export interface FinishedEntry {
  id: string;
  attempts: number;
  blockedAttempts: number;
  callId: string;
  endedReason: string;
}

export interface EntryOutcome {
  id: string;
  status: EntryOutcomeStatus;
  skipReason: string | null;
  skipDetail: string | null;
  nextAttemptAt: Date;
  blocked: boolean;
  endedReason: string;
}

/** An entry that cannot be called: the code (`skipReason`) and the sentence saying why (`skipDetail`). */
export interface SkippedEntry {
  id: string;
  reason: string;
  detail: string;
}

/** An entry a step dials: its call, number and the attempt the call is. */
export interface DialledEntry {
  entryId: string;
  callId: string;
  to: string;
  attempt: number;
}

/** Every entry is born waiting. */
const INITIAL_STATUS: EntryStatus = 'pending';

/**
 * The SQL of `campaign_entries`. Every status move is one statement named after a move of the transition table
 * (ENTRY_MOVES), conditional on the statuses it moves from.
 */
@Injectable()
export class CampaignEntriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One statement for the whole audience (up to 10,000 rows). */
  async insertMany(
    m: EntityManager,
    campaignId: string,
    organizationId: string,
    entries: ReadonlyArray<NewEntry & { caseVersion?: number }>,
  ): Promise<void> {
    await m.query(
      `INSERT INTO campaign_entries (id, campaign_id, organization_id, "to", contact_id, variable_values, time_zone,
                                     case_version, status, next_attempt_at)
       SELECT e.id, $1, $2, e."to", e.contact_id, e.variable_values, e.time_zone, e.case_version, $4, now()
         FROM jsonb_to_recordset($3::jsonb)
           AS e(id uuid, "to" text, contact_id uuid, variable_values jsonb, time_zone text, case_version int)`,
      [
        campaignId,
        organizationId,
        JSON.stringify(
          entries.map((e) => ({
            id: e.id,
            to: e.to,
            contact_id: e.contactId,
            variable_values: e.variableValues,
            time_zone: e.timeZone,
            case_version: e.caseVersion ?? null,
          })),
        ),
        INITIAL_STATUS,
      ],
    );
  }

  /** A campaign's entries counted per assigned case version. */
  async countByCaseVersion(campaignId: string): Promise<Array<{ caseVersion: number | null; entries: number }>> {
    return this.dataSource.query(
      `SELECT case_version AS "caseVersion", count(*)::int AS entries
         FROM campaign_entries WHERE campaign_id = $1 GROUP BY case_version`,
      [campaignId],
    );
  }

  /** In-progress entries whose current call has reached a final status. */
  async finished(m: EntityManager, campaignId: string): Promise<FinishedEntry[]> {
    const rows: Array<{ id: string; attempts: number; blocked_attempts: number; call_id: string; reason: string }> =
      await m.query(
        `SELECT e.id, e.attempts, e.blocked_attempts, c.id AS call_id, COALESCE(c.ended_reason, c.status) AS reason
           FROM campaign_entries e JOIN calls c ON c.id = e.current_call_id
          WHERE e.campaign_id = $1 AND ${entryStatusIn(ENTRY_MOVES.applyOutcome.from, 'e.status')} AND c.status IN ('ended', 'error', 'cancelled')`,
        [campaignId],
      );
    return rows.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      blockedAttempts: r.blocked_attempts,
      callId: r.call_id,
      endedReason: r.reason,
    }));
  }

  async applyOutcomes(m: EntityManager, outcomes: readonly EntryOutcome[]): Promise<void> {
    if (!outcomes.length) return;
    await m.query(
      `UPDATE campaign_entries e
          SET status = o.status, skip_reason = o.skip_reason, skip_detail = o.skip_detail, next_attempt_at = o.next_attempt_at,
              blocked_attempts = e.blocked_attempts + CASE WHEN o.blocked THEN 1 ELSE 0 END,
              last_ended_reason = o.ended_reason, current_call_id = NULL, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb)
           AS o(id uuid, status text, skip_reason text, skip_detail text, next_attempt_at timestamptz, blocked boolean, ended_reason text)
        WHERE e.id = o.id AND ${entryStatusIn(ENTRY_MOVES.applyOutcome.from, 'e.status')}`,
      [
        JSON.stringify(
          outcomes.map((o) => ({
            id: o.id,
            status: o.status,
            skip_reason: o.skipReason,
            skip_detail: o.skipDetail,
            next_attempt_at: o.nextAttemptAt.toISOString(),
            blocked: o.blocked,
            ended_reason: o.endedReason,
          })),
        ),
      ],
    );
  }

  /**
   * Whether the campaign has an open entry, and how many are in progress (the slots its calls hold), in one
   * statement: a step reads both, and it is the campaign's one serial stage, so every statement it saves is time
   * back for every slot (`npm run bench campaign`).
   */
  async progress(m: EntityManager, campaignId: string): Promise<{ open: boolean; inProgress: number }> {
    const [row]: Array<{ open: boolean; in_progress: number }> = await m.query(
      `SELECT EXISTS (SELECT 1 FROM campaign_entries WHERE campaign_id = $1 AND ${entryStatusIn(OPEN_ENTRY_STATUSES)}) AS open,
              (SELECT count(*)::int FROM campaign_entries
                WHERE campaign_id = $1 AND ${entryStatusIn(ENTRY_MOVES.applyOutcome.from)}) AS in_progress`,
      [campaignId],
    );
    return { open: row.open, inProgress: row.in_progress };
  }

  /** Due pending entries, oldest due first, locked for this engine. */
  due(m: EntityManager, campaignId: string, limit: number): Promise<CampaignEntry[]> {
    return queryEntities(
      m,
      CampaignEntry,
      `SELECT * FROM campaign_entries
        WHERE campaign_id = $1 AND ${entryStatusIn(ENTRY_MOVES.dial.from)} AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [campaignId, limit],
    );
  }

  async postpone(m: EntityManager, postponed: ReadonlyArray<{ id: string; until: Date }>): Promise<void> {
    if (!postponed.length) return;
    await m.query(
      `UPDATE campaign_entries e SET next_attempt_at = p.until, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, until timestamptz) WHERE e.id = p.id`,
      [JSON.stringify(postponed.map((p) => ({ id: p.id, until: p.until.toISOString() })))],
    );
  }

  async skip(m: EntityManager, skipped: readonly SkippedEntry[]): Promise<void> {
    if (!skipped.length) return;
    await m.query(
      `UPDATE campaign_entries e SET status = $2, skip_reason = s.reason, skip_detail = s.detail, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS s(id uuid, reason text, detail text)
        WHERE e.id = s.id AND ${entryStatusIn(ENTRY_MOVES.skip.from, 'e.status')}`,
      [JSON.stringify(skipped), ENTRY_MOVES.skip.to[0]],
    );
  }

  async markDialled(m: EntityManager, dialled: ReadonlyArray<Pick<DialledEntry, 'entryId' | 'callId'>>): Promise<void> {
    if (!dialled.length) return;
    await m.query(
      `UPDATE campaign_entries e SET status = $2, attempts = e.attempts + 1, current_call_id = d.call_id, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS d(entry_id uuid, call_id uuid)
        WHERE e.id = d.entry_id AND ${entryStatusIn(ENTRY_MOVES.dial.from, 'e.status')}`,
      [JSON.stringify(dialled.map((d) => ({ entry_id: d.entryId, call_id: d.callId }))), ENTRY_MOVES.dial.to[0]],
    );
  }

  pageQuery(campaignId: string) {
    return this.dataSource
      .getRepository(CampaignEntry)
      .createQueryBuilder('e')
      .where('e.campaignId = :campaignId', { campaignId });
  }
}
