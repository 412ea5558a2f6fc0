import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { CampaignAudienceDto } from '../../audiences/campaign-audience.dto';
import { isValidTimeZone } from '../../../common/validation/time-zone';
import { RECURRING_SCHEDULE_STATUSES, RecurringScheduleStatus } from '../recurring-schedule.entity';

export class CreateRecurringScheduleDto {
  @IsOptional() @IsUUID() caseId?: string;
  @IsOptional() @IsUUID() assistantConfigId?: string;
  @ApiPropertyOptional({ enum: RECURRING_SCHEDULE_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(RECURRING_SCHEDULE_STATUSES)
  status?: RecurringScheduleStatus;

  /* The dialer (extension): all three of rrule, from and audience, or none (a record that only blocks deletes). */

  /** RFC 5545 RRULE, e.g. `FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0`, read in `timeZone`. */
  @IsOptional() @IsString() @MaxLength(500) rrule?: string;

  @IsOptional()
  @ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && isValidTimeZone(v),
      defaultMessage: () => 'timeZone must be an IANA time zone',
    },
  })
  timeZone?: string;

  @IsOptional() @IsE164() from?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience?: CampaignAudienceDto;
}
