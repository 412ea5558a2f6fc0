import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { CampaignAudienceDto } from '../../audiences/campaign-audience.dto';
import { isValidTimeZone } from '../../../common/validation/time-zone';
import { RECURRING_SCHEDULE_STATUSES, RecurringScheduleStatus } from '../recurring-schedule.entity';
import { AssistantConfigIdField, CaseIdField } from './run-with-fields';

export class CreateRecurringScheduleDto {
  @CaseIdField()
  caseId?: string;
  @AssistantConfigIdField()
  assistantConfigId?: string;
  @ApiPropertyOptional({ enum: RECURRING_SCHEDULE_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(RECURRING_SCHEDULE_STATUSES)
  status?: RecurringScheduleStatus;

  /* The dialer (extension): all three of rrule, from and audience, or none (a record that only blocks deletes). */

  @ApiPropertyOptional({
    maxLength: 500,
    example: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
    description: 'Extension: RFC 5545 RRULE read in `timeZone`, with occurrences to come; with `from` and `audience`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  rrule?: string;

  @ApiPropertyOptional({ default: 'UTC', example: 'America/New_York', description: 'Extension: IANA time zone' })
  @IsOptional()
  @ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && isValidTimeZone(v),
      defaultMessage: () => 'timeZone must be an IANA time zone',
    },
  })
  timeZone?: string;

  @ApiPropertyOptional({
    example: '+14155550100',
    description: "Extension: the caller ID, one of the organization's numbers",
  })
  @IsOptional()
  @IsE164()
  from?: string;

  @ApiPropertyOptional({
    type: CampaignAudienceDto,
    description: 'Extension: who each occurrence calls, as `audience` of POST /api/v1/campaigns',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience?: CampaignAudienceDto;
}
