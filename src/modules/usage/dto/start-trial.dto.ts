import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';

export class StartTrialDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 365, example: 14, description: 'Length of the trial' })
  @IsInt()
  @Min(1)
  @Max(365)
  days: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100_000,
    example: 60,
    description: 'Minutes granted for the trial',
  })
  @IsInt()
  @Min(0)
  @Max(100_000)
  mins: number;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Default now (years 1970-9999); a past start shortens the trial (400 when it would already have ended)',
  })
  @IsOptional()
  @Type(() => Date)
  @IsBoundedDate()
  startedAt?: Date;
}
