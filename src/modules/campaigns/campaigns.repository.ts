import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryEntities } from '../../infra/database/entity-rows';
import { Campaign, CampaignStatus } from './campaign.entity';
import { movableTo } from './campaign-state';
import { World, worldSql, worldWhere } from '../../common/auth/world';

export interface CampaignProgress {
  counts: { total: number; pending: number; inProgress: number; done: number; skipped: number };
  /** Final endedReason of each done entry -> entries. */
  outcomes: Record<string, number>;
  /** Extension: the campaign's ended calls (every attempt) by who answered them (`answeredBy`, when set). */
  answeredBy: Record<string, number>;
  /** Extension: the campaign's ended calls by their post-call analysis verdict (`"true"` / `"false"`, when set). */
  success: Record<string, number>;
}

const EMPTY_PROGRESS = (): CampaignProgress => ({
  counts: { total: 0, pending: 0, inProgress: 0, done: 0, skipped: 0 },
  outcomes: {},
  answeredBy: {},
  success: {},
});

/** The SQL of `campaigns` (and the progress aggregate read over its entries). */
@Injectable()
export class CampaignsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Null when a campaign of the same source and key exists already. */
  async insertOnce(m: EntityManager, campaign: Campaign): Promise<Campaign | null> {
    const inserted = await m.createQueryBuilder().insert().into(Campaign).values(campaign).orIgnore().execute();
    if (!inserted.raw.length) return null;
    return m.findOneByOrFail(Campaign, { id: campaign.id });
  }

  async sourceTypeOf(id: string): Promise<string | null> {
    const rows: Array<{ source_type: string | null }> = await this.dataSource.query(
      `SELECT source_type FROM campaigns WHERE id = $1`,
      [id],
    );
    return rows[0]?.source_type ?? null;
  }

  find(world: World, id: string): Promise<Campaign | null> {
    return this.dataSource.manager.findOneBy(Campaign, { id, ...worldWhere(world) });
  }

  /** The campaign's row lock; null when absent, or (skipLocked) when another engine holds it. */
  async lock(m: EntityManager, id: string, skipLocked: boolean): Promise<Campaign | null> {
    const [row] = await queryEntities(
      m,
      Campaign,
      `SELECT * FROM campaigns WHERE id = $1 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
      [id],
    );
    return row ?? null;
  }

  async setStatus(
    m: EntityManager,
    id: string,
    status: CampaignStatus,
    pausedReason: string | null = null,
  ): Promise<Campaign> {
    const [row] = await queryEntities(
      m,
      Campaign,
      `UPDATE campaigns SET status = $2, paused_reason = $3, updated_at = now()
        WHERE id = $1 AND status = ANY($4) RETURNING *`,
      [id, status, pausedReason, movableTo(status)],
    );
    // Callers hold the campaign's row lock and checked its status: a move the table refuses is a bug, not a race.
    if (!row) throw new Error(`Campaign ${id} cannot move to ${status}`);
    return row;
  }

  /** Campaigns the engine has work for: due or running, and those paused by the engine (they may resume). */
  async active(limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM campaigns
        WHERE status IN ('scheduled', 'running') OR (status = 'paused' AND paused_reason IS NOT NULL)
        ORDER BY updated_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  queryBuilder(world: World) {
    return this.dataSource.getRepository(Campaign).createQueryBuilder('c').where(worldSql('c'), worldWhere(world));
  }

  async progress(
    ids: readonly string[],
    m: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, CampaignProgress>> {
    const result = new Map(ids.map((id) => [id, EMPTY_PROGRESS()]));
    if (!ids.length) return result;
    const rows: Array<{ campaign_id: string; status: string; reason: string | null; n: number }> = await m.query(
      `SELECT campaign_id, status, CASE WHEN status = 'done' THEN last_ended_reason END AS reason, count(*)::int AS n
         FROM campaign_entries WHERE campaign_id = ANY($1) GROUP BY 1, 2, 3`,
      [ids],
    );
    for (const row of rows) {
      const p = result.get(row.campaign_id)!;
      p.counts.total += row.n;
      if (row.status === 'pending') p.counts.pending += row.n;
      if (row.status === 'in_progress') p.counts.inProgress += row.n;
      if (row.status === 'skipped') p.counts.skipped += row.n;
      if (row.status === 'done') {
        p.counts.done += row.n;
        const reason = row.reason ?? 'unknown';
        p.outcomes[reason] = (p.outcomes[reason] ?? 0) + row.n;
      }
    }
    const verdicts: Array<{ campaign_id: string; answered_by: string | null; success: string | null; n: number }> =
      await m.query(
        `SELECT campaign_id, answered_by, analysis->>'success' AS success, count(*)::int AS n
           FROM calls WHERE campaign_id = ANY($1) AND status IN ('ended', 'error')
            AND (answered_by IS NOT NULL OR analysis->>'success' IS NOT NULL)
          GROUP BY 1, 2, 3`,
        [ids],
      );
    for (const row of verdicts) {
      const p = result.get(row.campaign_id)!;
      if (row.answered_by) p.answeredBy[row.answered_by] = (p.answeredBy[row.answered_by] ?? 0) + row.n;
      if (row.success) p.success[row.success] = (p.success[row.success] ?? 0) + row.n;
    }
    return result;
  }
}
