import { Injectable } from '@nestjs/common';
import { publicStatus } from './call.response';
import { CallsRepository } from './calls.repository';

/** Calls of an organization counted by public status since a moment (the console's overview). */
@Injectable()
export class CallStatsService {
  constructor(private readonly calls: CallsRepository) {}

  async countByStatus(organizationId: string, since: Date): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const row of await this.calls.countByStatusSince(organizationId, since)) {
      // The internal claim state reads as the public status it stands for (publicStatus), counted once.
      const status = publicStatus({ status: row.status, scheduledAt: row.scheduled ? new Date(0) : null });
      counts[status] = (counts[status] ?? 0) + row.n;
    }
    return counts;
  }
}
