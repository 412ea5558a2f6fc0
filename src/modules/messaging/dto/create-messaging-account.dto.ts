import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { MESSAGING_ACCOUNT_STATUSES, MessagingAccountStatus } from '../messaging-account.entity';

/** Admin API: what the dashboard records once an account is connected. */
export class CreateMessagingAccountDto {
  @IsString() @Length(1, 40) displayPhoneNumber: string;
  @IsString() @Length(1, 200) verifiedName: string;
  @IsOptional() @IsIn(MESSAGING_ACCOUNT_STATUSES) status?: MessagingAccountStatus;
  @IsOptional() @IsString() @MaxLength(1000) statusMessage?: string;
  @IsOptional() @IsString() @Length(1, 64) wabaId?: string;
  @IsOptional() @IsString() @Length(1, 64) phoneNumberId?: string;
  @IsOptional() @IsString() @Length(1, 32) qualityRating?: string;
}
