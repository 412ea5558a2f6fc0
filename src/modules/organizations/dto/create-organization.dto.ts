import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IsSafeEmail } from '../../../common/validation/is-safe-email.decorator';

export class CreateOrganizationDto {
  @IsString() @Length(1, 200) name: string;
  @IsOptional() @IsBoolean() profile?: boolean;
  @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @IsOptional() @IsSafeEmail() contactEmail?: string;
  @IsOptional() @IsString() @MaxLength(32) contactPhone?: string;
}
