import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { RECURRING_SCHEDULE_STATUSES, RecurringScheduleStatus } from '../../automations/recurring-schedule.entity';

export class ScheduleStatusDto {
  @ApiProperty({ enum: RECURRING_SCHEDULE_STATUSES, example: 'paused' })
  @IsIn(RECURRING_SCHEDULE_STATUSES)
  status: RecurringScheduleStatus;
}
