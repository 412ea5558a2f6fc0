import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsISO8601,
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
  ValidateNested,
} from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { VARIABLE_VALUES_LIMITS } from '../../calls/dto/create-call.dto';
import { IsFlatRecord } from '../../../common/validation/is-flat-record.decorator';
import { WEEKDAYS, Weekday } from '../campaign.entity';
import { isValidTimeZone } from '../engine/contact-time-zone';

/** Bounds of a campaign (documented in OpenAPI and the README). */
export const CAMPAIGN_BOUNDS = {
  audience: 10_000,
  maxConcurrent: 100,
  callsPerMinute: 600,
  retryDelaySeconds: 7 * 24 * 3600,
  maxAttempts: 10,
} as const;

/** endedReason values a retry policy may name. */
export const RETRYABLE_REASONS = [
  'customer-did-not-answer',
  'voicemail-reached',
  'customer-busy',
  'pipeline-error',
] as const;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const IsTimeZone = () =>
  ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isValidTimeZone(value),
      defaultMessage: (args) => `${args?.property} must be an IANA time zone, e.g. Europe/Paris`,
    },
  });

export class AudienceRowDto {
  @ApiProperty({ example: '+14155550123' }) @IsE164() to: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() contactId?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: { name: 'Ada' } })
  @IsOptional()
  @IsObject()
  @IsFlatRecord(VARIABLE_VALUES_LIMITS)
  variableValues?: Record<string, string>;
}

export class CampaignAudienceDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Every contact of this contact group' })
  @IsOptional()
  @IsUUID()
  groupId?: string;

  @ApiPropertyOptional({ type: [String], maxItems: CAMPAIGN_BOUNDS.audience, description: 'These contacts' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CAMPAIGN_BOUNDS.audience)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  contactIds?: string[];

  @ApiPropertyOptional({ type: [AudienceRowDto], maxItems: CAMPAIGN_BOUNDS.audience, description: 'Numbers to call' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CAMPAIGN_BOUNDS.audience)
  @ValidateNested({ each: true })
  @Type(() => AudienceRowDto)
  rows?: AudienceRowDto[];
}

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

export class CreateCampaignDto {
  @ApiProperty({ example: 'November reminders', maxLength: 200 }) @IsString() @Length(1, 200) name: string;
  @ApiProperty({ example: '+14155550100', description: "Caller ID: one of the organization's numbers" })
  @IsE164()
  from: string;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() caseId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() assistantConfigId?: string;
  @ApiPropertyOptional({ maxLength: 1000 }) @IsOptional() @IsString() @MaxLength(1000) firstMessage?: string;

  @ApiProperty({ type: CampaignAudienceDto, description: 'Exactly one of groupId, contactIds, rows' })
  @IsObject()
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience: CampaignAudienceDto;

  @ApiPropertyOptional({ format: 'date-time', description: 'Not before this time; default: when started' })
  @IsOptional()
  @IsISO8601({ strict: true })
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
}
