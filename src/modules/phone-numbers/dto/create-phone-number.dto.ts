import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { NumberFallbackDto } from './number-fallback.dto';
import { VOICE_PLATFORMS, VoicePlatform } from '../../../infra/config/platforms';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

export class CreatePhoneNumberDto {
  @ApiProperty({ example: '+14155550100', description: 'E.164; a number belongs to one organization at most' })
  @IsE164()
  number: string;
  @ApiPropertyOptional({ maxLength: 200, default: '', example: 'Main line' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string;
  @ApiPropertyOptional({
    maxLength: 200,
    example: '3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b1c2d3e',
    description:
      "The voice platform's id for the number (Vapi's phone number id), needed to call from it on Vapi; on " +
      'Retell the E.164 number itself (anything else is 400 VALIDATION_ERROR). Omitted on Vapi or Retell: the ' +
      'number is imported from the platform (looked up, pointed at this service) and its id stored (extension)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  providerId?: string;
  @ApiPropertyOptional({
    enum: VOICE_PLATFORMS,
    description:
      'Extension: the voice platform live calls from this number are placed on. Omitted: the default platform ' +
      'for new numbers (`VOICE_PROVIDER`). A value not listed is 400 VALIDATION_ERROR; a platform whose ' +
      'credentials this service does not have is 422 VALIDATION_ERROR naming `platform`',
  })
  @IsOptional()
  @IsIn(VOICE_PLATFORMS)
  platform?: VoicePlatform;
  @ApiPropertyOptional({
    type: NumberFallbackDto,
    description:
      'Extension: the same number imported on a second platform. A live call its platform fails to place ' +
      '(connection error, timeout, 5xx; never a 4xx about the call) is placed there once; a platform failing 5 ' +
      'placements in a row is skipped for such numbers for `PLATFORM_FAILOVER_COOLDOWN_MS` (docs/providers.md)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => NumberFallbackDto)
  fallback?: NumberFallbackDto;
}
