import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { isValidTimeZone } from '../../../common/validation/time-zone';
import { CampaignAudienceDto } from '../../audiences/campaign-audience.dto';
import { CAMPAIGN_BOUNDS, RETRYABLE_REASONS } from '../../audiences/campaign-bounds';
import { WEEKDAYS, Weekday } from '../campaign.entity';
import { VoicemailPolicyDto, VoicemailPolicyField } from '../../call-outcomes/voicemail-policy';
import { VARIANT_BOUNDS } from '../campaign-variants';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const E164 = /^\+[1-9]\d{6,14}$/;

const IsTimeZone = () =>
  ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isValidTimeZone(value),
      defaultMessage: (args) => `${args?.property} must be an IANA time zone, e.g. Europe/Paris`,
    },
  });

export class CallingWindowDto {
  @ApiProperty({ enum: WEEKDAYS, isArray: true, example: ['mon', 'tue', 'wed', 'thu', 'fri'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @ArrayUnique()
  @IsIn(WEEKDAYS, { each: true })
  days: Weekday[];

  @ApiProperty({ example: '09:00', description: 'Local opening time, HH:MM' }) @Matches(HH_MM) start: string;
  @ApiProperty({
    example: '18:00',
    description: 'Local closing time, HH:MM (exclusive; not after `start` means past midnight)',
  })
  @Matches(HH_MM)
  end: string;

  @ApiProperty({ example: 'America/New_York', description: 'IANA zone for contacts whose own zone is unknown' })
  @IsTimeZone()
  timezone: string;
}

export class RetryPolicyDto {
  @ApiProperty({ enum: RETRYABLE_REASONS, isArray: true, example: ['customer-did-not-answer', 'customer-busy'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(RETRYABLE_REASONS, { each: true })
  on: string[];

  @ApiProperty({ minimum: 0, maximum: CAMPAIGN_BOUNDS.retryDelaySeconds, example: 3600 })
  @IsInt()
  @Min(0)
  @Max(CAMPAIGN_BOUNDS.retryDelaySeconds)
  delaySeconds: number;

  @ApiProperty({ minimum: 1, maximum: CAMPAIGN_BOUNDS.maxAttempts, example: 3, description: 'First attempt included' })
  @IsInt()
  @Min(1)
  @Max(CAMPAIGN_BOUNDS.maxAttempts)
  maxAttempts: number;
}

export class CampaignVariantDto {
  @ApiProperty({ minimum: 1, example: 1, description: "A version of the campaign's case" })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  caseVersion: number;

  @ApiProperty({ minimum: VARIANT_BOUNDS.weightMin, maximum: VARIANT_BOUNDS.weightMax, example: 50 })
  @IsInt()
  @Min(VARIANT_BOUNDS.weightMin)
  @Max(VARIANT_BOUNDS.weightMax)
  weight: number;
}

export class CreateCampaignDto {
  @ApiProperty({ example: 'November reminders', maxLength: 200 }) @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional({
    example: '+14155550100',
    description: "Caller ID: one of the organization's numbers. Required unless `fromNumbers` is given",
  })
  @ValidateIf((dto: CreateCampaignDto) => dto.fromNumbers === undefined)
  @IsE164()
  from?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: CAMPAIGN_BOUNDS.fromNumbers,
    example: ['+14155550100', '+12125550142'],
    description:
      `Extension: 1-${CAMPAIGN_BOUNDS.fromNumbers} of the organization's numbers (E.164) to spread calls over, ` +
      'instead of `from`: each call uses a number of the area code it calls when there is one, else the least ' +
      'used today; `degraded` numbers are left out while others remain (docs/number-health.md)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CAMPAIGN_BOUNDS.fromNumbers)
  @ArrayUnique()
  @Matches(E164, { each: true, message: 'fromNumbers must hold phone numbers in E.164 format, e.g. +14155550187' })
  fromNumbers?: string[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: CAMPAIGN_BOUNDS.maxCallsPerNumberPerDay,
    description:
      "Extension: calls each of the campaign's numbers places a day (the window's time zone, UTC without one), " +
      'counting every call from the number; when all its numbers reach it the campaign pauses with ' +
      '`DAILY_NUMBER_CAP` and resumes the next day',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CAMPAIGN_BOUNDS.maxCallsPerNumberPerDay)
  maxCallsPerNumberPerDay?: number;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() caseId?: string;
  @ApiPropertyOptional({
    type: [CampaignVariantDto],
    minItems: VARIANT_BOUNDS.min,
    maxItems: VARIANT_BOUNDS.max,
    description:
      `Extension (docs/testing-your-assistant.md, "A/B"): ${VARIANT_BOUNDS.min}-${VARIANT_BOUNDS.max} versions of ` +
      `the case (each once, each one the case has; needs \`caseId\`) with weights ` +
      `${VARIANT_BOUNDS.weightMin}-${VARIANT_BOUNDS.weightMax}: each entry is assigned one once, by weight, and ` +
      'its calls use that version. Omitted: every call uses the case as it is when the call is made',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(VARIANT_BOUNDS.min)
  @ArrayMaxSize(VARIANT_BOUNDS.max)
  @ArrayUnique((v: CampaignVariantDto) => v?.caseVersion, { message: 'variants must name each caseVersion once' })
  @ValidateNested({ each: true })
  @Type(() => CampaignVariantDto)
  variants?: CampaignVariantDto[];

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() assistantConfigId?: string;
  @ApiPropertyOptional({ maxLength: 1000 }) @IsOptional() @IsString() @MaxLength(1000) firstMessage?: string;

  @ApiProperty({ type: CampaignAudienceDto, description: 'Exactly one of groupId, contactIds, rows' })
  @IsObject()
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience: CampaignAudienceDto;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Not before this time (years 1970-9999); default: when started',
  })
  @IsOptional()
  @IsBoundedDate()
  startAt?: string;

  @ApiPropertyOptional({ type: CallingWindowDto, description: 'Omitted: any time' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallingWindowDto)
  window?: CallingWindowDto;

  @ApiPropertyOptional({ minimum: 1, maximum: CAMPAIGN_BOUNDS.maxConcurrent, description: 'Default: no campaign cap' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CAMPAIGN_BOUNDS.maxConcurrent)
  maxConcurrent?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: CAMPAIGN_BOUNDS.callsPerMinute, description: 'New calls per minute' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CAMPAIGN_BOUNDS.callsPerMinute)
  callsPerMinute?: number;

  @ApiPropertyOptional({ type: RetryPolicyDto, description: 'Omitted: one attempt per entry' })
  @IsOptional()
  @ValidateNested()
  @Type(() => RetryPolicyDto)
  retry?: RetryPolicyDto;

  @VoicemailPolicyField("the campaign's")
  voicemail?: VoicemailPolicyDto;

  @ApiPropertyOptional({
    default: false,
    description:
      'Extension: store the rows that can be called and answer the others in `refusedRows`, instead of refusing ' +
      'the campaign (422 VALIDATION_ERROR) when a row misses a variable its case requires or its number is refused ' +
      'by the destination rules. A campaign with no row left is refused all the same.',
  })
  @IsOptional()
  @IsBoolean()
  skipInvalidRows?: boolean;
}
