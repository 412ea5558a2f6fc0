import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { lockForTransaction } from '../../infra/database/advisory-locks';
import type { VoicePlatform } from '../../infra/config/platforms';
import { poolSizeOf } from './pooled-platform';
import { CallCountsRepository } from './call-counts.repository';
import { Limits, OrganizationLimitsRepository } from './organization-limits.repository';

/**
 * Takes the organization's admission lock until the transaction ends. Every dial decision runs under it, so a
 * write that also takes it (a do-not-call listing) is seen by every dial decided after that write commits.
 */
export async function lockAdmission(manager: EntityManager, organizationId: string): Promise<void> {
  await lockForTransaction(manager, 'admission', organizationId);
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
    private readonly calls: CallCountsRepository,
    private readonly limits: OrganizationLimitsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The platform's account pool (VAPI_MAX_CONCURRENT_CALLS, RETELL_MAX_CONCURRENT_CALLS), or null when it has
   * none (the simulator) or this service cannot reach it.
   */
  poolSize(platform: VoicePlatform): number | null {
    return poolSizeOf(this.config, platform);
  }

  /**
   * How many more outbound calls of this organization on a pooled platform its shared pool takes now,
   * decided under that pool's lock (taken after the organization's; held until `manager`'s transaction ends);
   * Infinity without a pool. Every organization shares the pool, but while others wait none takes more than its
   * fair share (the pool divided among the organizations with live or waiting calls, rounded up): a burst of one
   * organization leaves room for the next one's calls. The platform's calls count whichever their direction (its
   * limit counts inbound calls too); calls on other platforms (every test-mode call: the simulator) count nowhere.
   */
  async lockFreePoolSlots(manager: EntityManager, organizationId: string, platform: VoicePlatform): Promise<number> {
    const pool = this.poolSize(platform);
    if (pool === null) return Infinity;
    await lockForTransaction(manager, 'voicePlatformPool', platform);
    const row = await this.calls.pool(manager, organizationId, platform);
    const fairShare = Math.ceil(pool / Math.max(1, row.organizations));
    return Math.max(0, Math.min(pool - row.live, fairShare - row.mine));
  }

  /** Without the lock: free slots of the platform's shared pool (a hint for whom to wake up); 0 without a pool. */
  async freePoolSlots(platform: VoicePlatform): Promise<number> {
    const pool = this.poolSize(platform);
    if (pool === null) return 0;
    const live = await this.calls.livePool(platform);
    return Math.max(0, pool - live);
  }

  /** Takes the organization's admission lock (held until `manager`'s transaction ends) and counts free slots. */
  async lockFreeOutboundSlots(manager: EntityManager, organizationId: string): Promise<number> {
    await lockAdmission(manager, organizationId);
    const limits = await this.limits.find(organizationId, manager);
    const live = await this.calls.live(organizationId, manager);
    return Math.max(0, limits.maxConcurrentCalls - limits.inboundReserve - live);
  }

  /** Without the lock: a hint for whom to wake up, never a decision. */
  async freeOutboundSlots(organizationId: string): Promise<number> {
    const s = await this.snapshot(organizationId);
    return Math.max(0, s.maxConcurrentCalls - s.inboundReserve - s.liveCalls);
  }

  async snapshot(organizationId: string): Promise<ConcurrencySnapshot> {
    const limits = await this.limits.find(organizationId);
    const row = await this.calls.ofOrganization(organizationId);
    return { ...limits, liveCalls: row.live, queuedCalls: row.queued };
  }
}
