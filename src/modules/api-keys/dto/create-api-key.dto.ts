import { ApiProperty } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsIn, IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { SCOPES } from '../../../common/auth/scopes';

export class CreateApiKeyDto {
  @ApiProperty({ enum: SCOPES, isArray: true, example: ['calls:read', 'calls:write'] })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(SCOPES, { each: true })
  scopes: string[];
  @IsOptional() @IsIn(['live', 'test']) environment?: 'live' | 'test';
  @IsOptional() @IsString() @Length(1, 200) name?: string;
  @IsOptional() @IsISO8601({ strict: true }) expiresAt?: string;
}
