import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { RECURRING_SCHEDULE_STATUSES, RecurringScheduleStatus } from '../recurring-schedule.entity';

export class CreateRecurringScheduleDto {
  @IsOptional() @IsUUID() caseId?: string;
  @IsOptional() @IsUUID() assistantConfigId?: string;
  @ApiPropertyOptional({ enum: RECURRING_SCHEDULE_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(RECURRING_SCHEDULE_STATUSES)
  status?: RecurringScheduleStatus;
}
