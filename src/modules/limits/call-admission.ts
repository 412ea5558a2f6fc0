import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Limits, OrganizationLimitsRepository } from './organization-limits.repository';

/** Namespace of the per-organization advisory locks that serialise admission decisions. */
const ADMISSION_LOCK_SPACE = 0x4144; // "AD"

/**
 * Takes the organization's admission lock until the transaction ends. Every dial decision runs under it, so a
 * write that also takes it (a do-not-call listing) is seen by every dial decided after that write commits.
 */
export async function lockAdmission(manager: EntityManager, organizationId: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADMISSION_LOCK_SPACE, organizationId]);
}

export interface ConcurrencySnapshot extends Limits {
  liveCalls: number;
  queuedCalls: number;
}

/**
 * Admission control: how many more outbound calls of an organization may go live now. The decision runs under
 * a per-organization transaction-scoped advisory lock, so dispatchers in any number of processes admit at most
 * the free slots between them; the lock is released at the commit that makes the admitted calls `processing`
 * (and so counted by the next decision). Inbound calls are never refused (a caller cannot be queued): they
 * count as live, and `inboundReserve` slots are kept free of outbound calls for them.
 */
@Injectable()
export class CallAdmission {
  constructor(
    private readonly dataSource: DataSource,
    private readonly limits: OrganizationLimitsRepository,
  ) {}

  /** Takes the organization's admission lock (held until `manager`'s transaction ends) and counts free slots. */
  async lockFreeOutboundSlots(manager: EntityManager, organizationId: string): Promise<number> {
    await lockAdmission(manager, organizationId);
    const limits = await this.limits.find(organizationId, manager);
    const live = await this.liveCalls(manager, organizationId);
    return Math.max(0, limits.maxConcurrentCalls - limits.inboundReserve - live);
  }

  /** Without the lock: a hint for whom to wake up, never a decision. */
  async freeOutboundSlots(organizationId: string): Promise<number> {
    const s = await this.snapshot(organizationId);
    return Math.max(0, s.maxConcurrentCalls - s.inboundReserve - s.liveCalls);
  }

  async snapshot(organizationId: string): Promise<ConcurrencySnapshot> {
    const limits = await this.limits.find(organizationId);
    const [row]: Array<{ live: number; queued: number }> = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'processing')::int AS live,
              count(*) FILTER (WHERE status <> 'processing'
                                 AND (scheduled_at IS NULL OR scheduled_at <= now()))::int AS queued
         FROM calls WHERE organization_id = $1 AND status IN ('new', 'scheduled', 'lock-processing', 'processing')`,
      [organizationId],
    );
    return { ...limits, liveCalls: row.live, queuedCalls: row.queued };
  }

  private async liveCalls(manager: EntityManager, organizationId: string): Promise<number> {
    const [row]: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM calls WHERE organization_id = $1 AND status = 'processing'`,
      [organizationId],
    );
    return row.n;
  }
}
