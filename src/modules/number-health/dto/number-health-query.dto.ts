import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The longest history the health endpoint answers with, in days (docs/number-health.md). */
export const MAX_HEALTH_DAYS = 90;
export const DEFAULT_HEALTH_DAYS = 7;

export class NumberHealthQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_HEALTH_DAYS,
    default: DEFAULT_HEALTH_DAYS,
    description: `UTC days back from today (included), 1-${MAX_HEALTH_DAYS}`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_HEALTH_DAYS)
  days: number = DEFAULT_HEALTH_DAYS;
}
