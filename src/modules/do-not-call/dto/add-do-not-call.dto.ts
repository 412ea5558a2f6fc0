import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

export class AddDoNotCallDto {
  @ApiProperty({ example: '+14155550199', description: 'E.164 (spaces and dashes are accepted and normalised)' })
  @IsE164()
  number: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Asked not to be called' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
