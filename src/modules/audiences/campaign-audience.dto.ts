import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsObject,
  IsOptional,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { IsE164 } from '../../common/validation/is-e164.decorator';
import { IsFlatRecord } from '../../common/validation/is-flat-record.decorator';
import { VARIABLE_VALUES_LIMITS } from '../calls/variable-values-limits';
import { CAMPAIGN_BOUNDS } from './campaign-bounds';

export class AudienceRowDto {
  @ApiProperty({ example: '+14155550187' }) @IsE164() to: string;
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
