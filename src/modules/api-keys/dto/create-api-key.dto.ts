import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { SCOPES } from '../../../common/auth/scopes';

export class CreateApiKeyDto {
  @ApiProperty({ enum: SCOPES, isArray: true, example: ['calls:read', 'calls:write'] })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(SCOPES, { each: true })
  scopes: string[];
  @IsOptional() @IsIn(['live', 'test']) environment?: 'live' | 'test';
  @IsOptional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'The key is refused after this time (years 1970-9999)' })
  @IsOptional()
  @IsBoundedDate()
  expiresAt?: string;
}
