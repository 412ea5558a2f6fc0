import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CampaignAttempt } from './campaign-attempt.entity';

/** The SQL of `campaign_attempts`. */
@Injectable()
export class CampaignAttemptsRepository {
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
