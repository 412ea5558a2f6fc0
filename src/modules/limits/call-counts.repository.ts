import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { VoicePlatform } from '../../infra/config/platforms';

/** An organization's calls counted for admission: live ones, and queued ones that are due. */
export interface CallCounts {
  live: number;
  queued: number;
}

/** The platform pool's view: live calls of every organization, this organization's, and who is live or waiting. */
export interface PoolCounts {
  live: number;
  mine: number;
  organizations: number;
}

/**
 * The admission's reads of `calls`: counts only, run under the admission and pool locks by CallAdmission. The
 * table's writes live in the calls module's CallsRepository; this module cannot import that one, which imports it.
 */
@Injectable()
export class CallCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Live calls on a pooled platform (calls.platform), and the organizations with live or due calls there. */
  async pool(manager: EntityManager, organizationId: string, platform: VoicePlatform): Promise<PoolCounts> {
    const [row]: PoolCounts[] = await manager.query(
      `SELECT count(*) FILTER (WHERE status = 'processing')::int AS live,
              count(*) FILTER (WHERE status = 'processing' AND organization_id = $1)::int AS mine,
              count(DISTINCT organization_id)::int AS organizations
         FROM calls
        WHERE platform = $2 AND status IN ('new', 'scheduled', 'lock-processing', 'processing')
          AND (scheduled_at IS NULL OR scheduled_at <= now())`,
      [organizationId, platform],
    );
    return row;
  }

  /** Live calls on a pooled platform, every organization together. */
  async livePool(platform: VoicePlatform): Promise<number> {
    const [row]: Array<{ live: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS live FROM calls WHERE platform = $1 AND status = 'processing'`,
      [platform],
    );
    return row.live;
  }

  /** The organization's live calls. */
  async live(organizationId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [row]: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM calls WHERE organization_id = $1 AND status = 'processing'`,
      [organizationId],
    );
    return row.n;
  }

  /** The organization's live calls and its queued calls that are due. */
  async ofOrganization(organizationId: string): Promise<CallCounts> {
    const [row]: CallCounts[] = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'processing')::int AS live,
              count(*) FILTER (WHERE status <> 'processing'
                                 AND (scheduled_at IS NULL OR scheduled_at <= now()))::int AS queued
         FROM calls WHERE organization_id = $1 AND status IN ('new', 'scheduled', 'lock-processing', 'processing')`,
      [organizationId],
    );
    return row;
  }
}
