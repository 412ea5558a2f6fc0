import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

export class RecoverDeliveriesQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-23T08:00:00.000Z',
    description:
      'Re-send deliveries first attempted at or after this time; at most 7 days ago (events are kept 7 days), the default',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;
}
