import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { OrganizationLimit } from './organization-limit.entity';

/** Applies to an organization without its own row. */
export const DEFAULT_LIMITS = { maxConcurrentCalls: 10, inboundReserve: 0 } as const;

export interface Limits {
  maxConcurrentCalls: number;
  inboundReserve: number;
}

/** The SQL of `organization_limits`. */
@Injectable()
export class OrganizationLimitsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(organizationId: string, manager: EntityManager = this.dataSource.manager): Promise<Limits> {
    const row = await manager.findOneBy(OrganizationLimit, { organizationId });
    return row
      ? { maxConcurrentCalls: row.maxConcurrentCalls, inboundReserve: row.inboundReserve }
      : { ...DEFAULT_LIMITS };
  }

  async save(organizationId: string, limits: Limits): Promise<Limits> {
    await this.dataSource.query(
      `INSERT INTO organization_limits (organization_id, max_concurrent_calls, inbound_reserve, updated_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (organization_id) DO UPDATE
         SET max_concurrent_calls = EXCLUDED.max_concurrent_calls, inbound_reserve = EXCLUDED.inbound_reserve,
             updated_at = now()`,
      [organizationId, limits.maxConcurrentCalls, limits.inboundReserve],
    );
    return limits;
  }
}
