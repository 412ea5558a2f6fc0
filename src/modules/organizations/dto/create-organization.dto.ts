import { IsBoolean, IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class CreateOrganizationDto {
  @IsString() @Length(1, 200) name: string;
  @IsOptional() @IsBoolean() profile?: boolean;
  @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @IsOptional() @IsEmail() contactEmail?: string;
  @IsOptional() @IsString() @MaxLength(32) contactPhone?: string;
}
