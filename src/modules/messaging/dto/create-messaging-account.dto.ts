import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { MESSAGING_ACCOUNT_STATUSES, MessagingAccountStatus } from '../messaging-account.entity';

/** Admin API: what the dashboard records once an account is connected. */
export class CreateMessagingAccountDto {
  @ApiProperty({ minLength: 1, maxLength: 40, example: '+1 555-010-0100' })
  @IsString()
  @Length(1, 40)
  displayPhoneNumber: string;
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Acme Dental' })
  @IsString()
  @Length(1, 200)
  verifiedName: string;
  @ApiPropertyOptional({
    enum: MESSAGING_ACCOUNT_STATUSES,
    default: 'active',
    description: 'Only active accounts send',
  })
  @IsOptional()
  @IsIn(MESSAGING_ACCOUNT_STATUSES)
  status?: MessagingAccountStatus;
  @ApiPropertyOptional({ maxLength: 1000, description: 'Why the account is not active, as the provider said' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  statusMessage?: string;
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    example: '102290129340398',
    description: 'WhatsApp Business account id',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  wabaId?: string;
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    example: '106540352242922',
    description: "The provider's phone number id, which its webhooks address; unique across accounts",
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  phoneNumberId?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 32, default: 'UNKNOWN', example: 'GREEN' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  qualityRating?: string;
  @ApiPropertyOptional({
    default: true,
    description:
      'The world of the account: false makes a test account, whose conversations and messages are test data ' +
      '(read and sent with `test` keys only) and which always uses the messaging simulator',
  })
  @IsOptional()
  @IsBoolean()
  livemode?: boolean;
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 1024,
    writeOnly: true,
    description:
      "The account's own WhatsApp access token (a system-user token); stored encrypted with SECRETS_KEY and never " +
      'returned (`hasAccessToken` tells whether one is set). Without it the process-wide WHATSAPP_ACCESS_TOKEN serves ' +
      'the account. 422 INVALID_STATE when SECRETS_KEY is not set',
  })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  accessToken?: string;
}

/** Admin API: rotate (or clear, with null) an account's own access token. */
export class SetMessagingAccessTokenDto {
  @ApiProperty({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 1024,
    writeOnly: true,
    description: 'The new token (stored encrypted, never returned), or null to use the process-wide token again',
  })
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @Length(1, 1024)
  accessToken: string | null;
}
