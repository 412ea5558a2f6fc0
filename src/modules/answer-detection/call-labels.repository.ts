import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World, worldParams, worldWhere } from '../../common/auth/world';
import { queryEntities } from '../../infra/database/entity-rows';
import type { AnsweredBy } from '../call-outcomes/answered-by';
import type { VoicePlatform } from '../../infra/config/platforms';
import { CallLabel } from './call-label.entity';

/** The report's filters: the call's creation time, platform and campaign. */
export interface LabelledCallFilters {
  from?: string;
  to?: string;
  platform?: VoicePlatform;
  campaignId?: string;
}

/** Labelled calls counted by platform, label and what the platform detected (null: nothing detected). */
export interface LabelledCallCount {
  platform: VoicePlatform;
  label: AnsweredBy;
  detected: AnsweredBy | null;
  n: number;
}

/** The SQL of `call_labels`, and the report's read of labelled calls beside their calls. */
@Injectable()
export class CallLabelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records the label of one of the world's calls, replacing an earlier one; the label as stored. */
  async put(world: World, callId: string, answeredBy: AnsweredBy, note: string | null): Promise<CallLabel> {
    const [label] = await queryEntities(
      this.dataSource.manager,
      CallLabel,
      `INSERT INTO call_labels (call_id, organization_id, livemode, answered_by, note)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (call_id) DO UPDATE SET answered_by = EXCLUDED.answered_by, note = EXCLUDED.note,
              updated_at = now()
       RETURNING *`,
      [callId, ...worldParams(world), answeredBy, note],
    );
    return label;
  }

  find(world: World, callId: string): Promise<CallLabel | null> {
    return this.dataSource.manager.findOneBy(CallLabel, { callId, ...worldWhere(world) });
  }

  /**
   * The world's labelled calls matching the filters, counted per platform, label and detected outcome. One
   * grouped scan of the world's labels (a person labels hundreds of calls, not millions), each joined to its call.
   */
  async countLabelled(world: World, filters: LabelledCallFilters): Promise<LabelledCallCount[]> {
    const rows: Array<{ platform: VoicePlatform; label: AnsweredBy; detected: AnsweredBy | null; n: number }> =
      await this.dataSource.query(
        `SELECT c.platform, l.answered_by AS label, c.answered_by AS detected, count(*)::int AS n
           FROM call_labels l JOIN calls c ON c.id = l.call_id
          WHERE l.organization_id = $1 AND l.livemode = $2
            AND ($3::timestamptz IS NULL OR c.created_at >= $3)
            AND ($4::timestamptz IS NULL OR c.created_at < $4)
            AND ($5::text IS NULL OR c.platform = $5)
            AND ($6::uuid IS NULL OR c.campaign_id = $6)
          GROUP BY 1, 2, 3`,
        [
          ...worldParams(world),
          filters.from ?? null,
          filters.to ?? null,
          filters.platform ?? null,
          filters.campaignId ?? null,
        ],
      );
    return rows;
  }
}
