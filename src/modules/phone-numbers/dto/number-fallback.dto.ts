import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { VOICE_PLATFORMS, VoicePlatform } from '../../../infra/config/platforms';

/** Extension: the same number on a second voice platform (docs/providers.md, "Failover"). */
export class NumberFallbackDto {
  @ApiProperty({
    enum: VOICE_PLATFORMS,
    example: 'retell',
    description: "Another platform than the number's own, configured on this service (else 422 naming it)",
  })
  @IsIn(VOICE_PLATFORMS)
  platform: VoicePlatform;

  @ApiProperty({
    maxLength: 200,
    example: '+14155550100',
    description: "The number's id on that platform (Vapi's phone number id; on Retell the E.164 number itself)",
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  providerId: string;
}
