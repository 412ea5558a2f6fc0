import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { inTransaction, Tx } from '../../../infra/database/tx';
import { RecurringSchedule } from '../../automations/recurring-schedule.entity';
import { RecurringSchedulesRepository } from '../../automations/recurring-schedules.repository';
import { CampaignAudienceDto } from '../../audiences/campaign-audience.dto';
import { CreateCampaignCommand } from '../create-campaign.command';
import { OccurrencesService } from '../../automations/occurrences.service';
import type { NoJobData } from '../../../infra/queue/job-data';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.RecurringScheduleTick]: NoJobData;
  }
}

export const SCHEDULE_TICK_MS = 1000;
const BATCH = 20;

/**
 * Fires recurring schedules (the contract's automations, driven by the dialer): each due occurrence of an
 * active schedule places one campaign with the schedule's case, assistant, caller ID and audience, run by the
 * campaign engine (windows, pacing, do-not-call, admission). Once per occurrence across any number of
 * schedulers: the due schedule is locked (SKIP LOCKED), and the campaign is keyed by (schedule, occurrence).
 */
@Injectable()
export class RecurringScheduleRunnerJob {
  private readonly logger = new Logger(RecurringScheduleRunnerJob.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly schedules: RecurringSchedulesRepository,
    private readonly create: CreateCampaignCommand,
    private readonly occurrences: OccurrencesService,
  ) {}

  @OnJob({ name: JobName.RecurringScheduleTick, schedule: { every: SCHEDULE_TICK_MS } })
  async tick(): Promise<number> {
    return inTransaction(this.dataSource, async (m) => {
      const due = await this.schedules.lockDue(m, BATCH);
      for (const schedule of due) {
        await this.fire(m, schedule);
        const after = new Date(Math.max(Date.now(), schedule.nextOccurrenceAt!.getTime()));
        await this.schedules.setNextOccurrence(m, schedule.id, await this.following(schedule, after));
      }
      return due.length;
    });
  }

  /**
   * The occurrence after `after`, or null: the series has ended, or its next occurrence is too far to find within
   * the computation budget (the schedule then stops, with a warning: nothing could be placed on time anyway).
   */
  private async following(s: RecurringSchedule, after: Date): Promise<Date | null> {
    try {
      return await this.occurrences.next(s.rrule!, s.timeZone, s.createdAt, after);
    } catch (error) {
      this.logger.warn({ scheduleId: s.id, err: (error as Error).message }, 'Schedule stopped: no next occurrence');
      return null;
    }
  }

  /**
   * Places the occurrence's campaign in the tick's transaction: a creation on a second connection, taken while
   * the tick holds its own, would deadlock the pool once as many ticks as connections overlap. Each occurrence in
   * a savepoint, so a failure (its audience group deleted, its number released) skips this occurrence, not the
   * next ones.
   */
  private async fire(tx: Tx, s: RecurringSchedule): Promise<void> {
    const occurrence = s.nextOccurrenceAt!.toISOString();
    try {
      await inTransaction(tx, (savepoint) =>
        this.create.executeIn(
          savepoint,
          s.organizationId,
          {
            name: `Recurring schedule ${s.id} at ${occurrence}`,
            from: s.callFrom!,
            caseId: s.caseId ?? undefined,
            assistantConfigId: s.assistantConfigId ?? undefined,
            audience: s.audience as CampaignAudienceDto,
            startAt: occurrence,
          },
          // Schedules are made through the admin API (the dashboard), never by a test key.
          { livemode: true, source: { type: 'recurring_schedule', id: s.id, key: occurrence } },
        ),
      );
    } catch (error) {
      this.logger.warn({ scheduleId: s.id, occurrence, err: (error as Error).message }, 'Occurrence not placed');
    }
  }
}
