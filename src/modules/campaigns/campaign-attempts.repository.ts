import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CampaignAttempt } from './campaign-attempt.entity';
import type { DialledEntry } from './campaign-entries.repository';

/** The SQL of `campaign_attempts`. */
@Injectable()
export class CampaignAttemptsRepository {
  /** A step's attempts, in one statement; fails on a second insert of the same (entry, attempt): the once-per-attempt guarantee. */
  async insertMany(
    m: EntityManager,
    campaign: { id: string; organizationId: string },
    dialled: readonly DialledEntry[],
  ): Promise<void> {
    if (!dialled.length) return;
    await m.query(
      `INSERT INTO campaign_attempts (id, entry_id, campaign_id, organization_id, "to", attempt, call_id, at)
       SELECT a.id, a.entry_id, $2::uuid, $3::uuid, a."to", a.attempt, a.call_id, now()
         FROM jsonb_to_recordset($1::jsonb) AS a(id uuid, entry_id uuid, "to" text, attempt int, call_id uuid)`,
      [
        JSON.stringify(
          dialled.map((d) => ({ id: uuidv7(), entry_id: d.entryId, to: d.to, attempt: d.attempt, call_id: d.callId })),
        ),
        campaign.id,
        campaign.organizationId,
      ],
    );
  }

  async recordEnded(m: EntityManager, ended: ReadonlyArray<{ callId: string; endedReason: string }>): Promise<void> {
    if (!ended.length) return;
    await m.query(
      `UPDATE campaign_attempts a SET ended_reason = x.reason
         FROM jsonb_to_recordset($1::jsonb) AS x(call_id uuid, reason text) WHERE a.call_id = x.call_id`,
      [JSON.stringify(ended.map((e) => ({ call_id: e.callId, reason: e.endedReason })))],
    );
  }

  async startedSince(m: EntityManager, campaignId: string, seconds: number): Promise<number> {
    const [row]: Array<{ n: number }> = await m.query(
      `SELECT count(*)::int AS n FROM campaign_attempts WHERE campaign_id = $1 AND at > now() - make_interval(secs => $2)`,
      [campaignId, seconds],
    );
    return row.n;
  }

  /** Per number: attempts in the last 24 hours across all the organization's campaigns, and the oldest of them. */
  async dailyByNumber(
    m: EntityManager,
    organizationId: string,
    numbers: readonly string[],
  ): Promise<Map<string, { count: number; oldest: Date }>> {
    if (!numbers.length) return new Map();
    const rows: Array<{ to: string; n: number; oldest: Date }> = await m.query(
      `SELECT "to", count(*)::int AS n, min(at) AS oldest FROM campaign_attempts
        WHERE organization_id = $1 AND "to" = ANY($2) AND at > now() - interval '24 hours' GROUP BY "to"`,
      [organizationId, [...new Set(numbers)]],
    );
    return new Map(rows.map((r) => [r.to, { count: r.n, oldest: new Date(r.oldest) }]));
  }

  /**
   * Outbound calls the world's organization placed from each of `numbers` since midnight in `timeZone` (all its
   * calls, not only this campaign's: a number's daily cap is about the number). Reads `calls` by its
   * organization-number-time index.
   */
  async callsFromToday(
    m: EntityManager,
    world: { organizationId: string; livemode: boolean },
    numbers: readonly string[],
    timeZone: string,
  ): Promise<Map<string, number>> {
    const rows: Array<{ number: string; n: number }> = await m.query(
      `SELECT call_from AS number, count(*)::int AS n FROM calls
        WHERE organization_id = $1 AND livemode = $2 AND direction = 'outbound' AND call_from = ANY($3)
          AND created_at >= date_trunc('day', now() AT TIME ZONE $4) AT TIME ZONE $4
        GROUP BY call_from`,
      [world.organizationId, world.livemode, [...numbers], timeZone],
    );
    return new Map(rows.map((r) => [r.number, r.n]));
  }

  async forEntries(
    entryIds: readonly string[],
    m: EntityManager,
  ): Promise<Map<string, Array<Pick<CampaignAttempt, 'callId' | 'endedReason' | 'at'>>>> {
    const result = new Map<string, Array<Pick<CampaignAttempt, 'callId' | 'endedReason' | 'at'>>>();
    if (!entryIds.length) return result;
    const rows: Array<{ entry_id: string; call_id: string; ended_reason: string | null; at: Date }> = await m.query(
      `SELECT entry_id, call_id, ended_reason, at FROM campaign_attempts WHERE entry_id = ANY($1) ORDER BY attempt`,
      [entryIds],
    );
    for (const r of rows) {
      const list = result.get(r.entry_id) ?? [];
      list.push({ callId: r.call_id, endedReason: r.ended_reason, at: new Date(r.at) });
      result.set(r.entry_id, list);
    }
    return result;
  }
}
