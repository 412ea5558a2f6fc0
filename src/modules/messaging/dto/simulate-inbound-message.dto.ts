import { IsISO8601, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

/** Admin API: a user's message arrives at an account, as the provider's webhook would bring it. */
export class SimulateInboundMessageDto {
  @IsUUID() accountId: string;
  @IsE164() from: string;
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @IsString() @Length(1, 4096) text: string;
  /** When the user wrote it (default now); a past time backdates the 24-hour window. */
  @IsOptional() @IsISO8601({ strict: true }) timestamp?: string;
  /** The provider's message id (default: a new one); repeat it to replay a duplicate delivery. */
  @IsOptional() @IsString() @Length(1, 200) messageId?: string;
}
