import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

export class CreatePhoneNumberDto {
  @IsE164() number: string;
  @IsOptional() @IsString() @MaxLength(200) label?: string;
  @IsOptional() @IsString() @MaxLength(200) providerId?: string;
}
