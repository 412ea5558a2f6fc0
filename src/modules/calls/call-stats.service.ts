import { Injectable } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { publicStatus } from './call.response';
import { CallsRepository, CaseVersionTotals } from './calls.repository';

/** Calls of one world counted: by public status since a moment (the console's overview), per case version. */
@Injectable()
export class CallStatsService {
  constructor(private readonly calls: CallsRepository) {}

  /** A campaign's calls per case version (the campaign's A/B report). */
  totalsByCaseVersion(world: World, campaignId: string): Promise<CaseVersionTotals[]> {
    return this.calls.totalsByCaseVersion(world, campaignId);
  }

  async countByStatus(world: World, since: Date): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const row of await this.calls.countByStatusSince(world, since)) {
      // The internal claim state reads as the public status it stands for (publicStatus), counted once.
      const status = publicStatus({ status: row.status, scheduledAt: row.scheduled ? new Date(0) : null });
      counts[status] = (counts[status] ?? 0) + row.n;
    }
    return counts;
  }
}
