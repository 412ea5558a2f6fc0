import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

/** Admin API: a user's message arrives at an account, as the provider's webhook would bring it. */
export class SimulateInboundMessageDto {
  @ApiProperty({
    format: 'uuid',
    example: '0190f0c0-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
    description: 'The messaging account',
  })
  @IsUUID()
  accountId: string;
  @ApiProperty({ example: '+14155550187', description: "The user's phone, E.164" })
  @IsE164()
  from: string;
  @ApiPropertyOptional({ maxLength: 200, example: 'Ada Lovelace', description: "The user's profile name" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
  @ApiProperty({ minLength: 1, maxLength: 4096, example: 'Can I move my appointment to Friday?' })
  @IsString()
  @Length(1, 4096)
  text: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the user wrote it (default now; years 1970-9999); a past time backdates the 24-hour window',
  })
  @IsOptional()
  @IsBoundedDate()
  timestamp?: string;
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    example: 'wamid.HBgLMTQxNTU1NTAxMjMVAgASGBQzQTRBRTg',
    description: "The provider's message id (default: a new one); repeat it to replay a duplicate delivery",
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  messageId?: string;
}
