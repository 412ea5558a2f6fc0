import { ApiProperty } from '@nestjs/swagger';
import { VOICE_PLATFORMS, VoicePlatform } from '../../infra/config/platforms';
import { PhoneNumber } from './phone-number.entity';
import { NumberFallbackDto } from './dto/number-fallback.dto';

export class PhoneNumberResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'E.164', example: '+14155550100' }) number: string;
  @ApiProperty({ example: 'Main line' }) label: string;
  @ApiProperty({
    enum: VOICE_PLATFORMS,
    example: 'vapi',
    description:
      'Extension: the voice platform live calls from this number are placed on (test-mode calls always play on ' +
      'the simulator), set when the number is assigned',
  })
  platform: VoicePlatform;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(n: PhoneNumber): PhoneNumberResponse {
    return { id: n.id, number: n.number, label: n.label, platform: n.platform, createdAt: n.createdAt.toISOString() };
  }
}

/** The admin API's view of a number: also the voice platform's id for it. */
export class AdminPhoneNumberResponse extends PhoneNumberResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b1c2d3e',
    description: "The voice platform's id for the number (Vapi's phone number id); null when not registered there",
  })
  providerId: string | null;
  @ApiProperty({
    type: NumberFallbackDto,
    nullable: true,
    description: 'Extension: the same number on a second platform, used when its own fails to place a call',
  })
  fallback: NumberFallbackDto | null;

  static fromRow(n: PhoneNumber): AdminPhoneNumberResponse {
    return { ...PhoneNumberResponse.from(n), providerId: n.providerId, fallback: n.fallback ?? null };
  }
}
