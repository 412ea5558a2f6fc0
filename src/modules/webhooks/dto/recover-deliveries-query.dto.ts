import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';

export class RecoverDeliveriesQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-23T08:00:00.000Z',
    description:
      'Re-send deliveries first attempted at or after this time; at most 7 days ago (events are kept 7 days), the default; years 1970-9999',
  })
  @IsOptional()
  @IsBoundedDate()
  since?: string;
}
