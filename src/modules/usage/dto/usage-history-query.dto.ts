import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';
import { LEDGER_TYPES, LedgerType } from '../entities/minute-ledger-entry.entity';

export class UsageHistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: LEDGER_TYPES })
  @IsOptional()
  @IsIn(LEDGER_TYPES)
  type?: LedgerType;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Rows created at or after',
  })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  from?: Date;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Rows created at or before',
  })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  to?: Date;
}
