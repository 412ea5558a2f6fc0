import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { VOICE_PLATFORMS, VoicePlatform } from '../../../infra/config/platforms';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

export class CreatePhoneNumberDto {
  @ApiProperty({ example: '+14155550142', description: 'E.164; a number belongs to one organization at most' })
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
}
