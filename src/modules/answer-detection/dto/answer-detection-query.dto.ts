import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { DATE_RANGE_NOTE, IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { VOICE_PLATFORMS, VoicePlatform } from '../../../infra/config/platforms';

export class AnswerDetectionQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    description: `Only calls created at or after this time (ISO 8601, ${DATE_RANGE_NOTE})`,
  })
  @IsOptional()
  @IsBoundedDate()
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: `Only calls created before this time (ISO 8601, ${DATE_RANGE_NOTE})`,
  })
  @IsOptional()
  @IsBoundedDate()
  to?: string;

  @ApiPropertyOptional({ enum: VOICE_PLATFORMS, description: 'Only calls placed on this voice platform' })
  @IsOptional()
  @IsIn(VOICE_PLATFORMS)
  platform?: VoicePlatform;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only calls placed by this campaign' })
  @IsOptional()
  @IsUUID()
  campaignId?: string;
}
