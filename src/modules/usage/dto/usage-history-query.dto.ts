import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';
import { LEDGER_TYPES, LedgerType } from '../entities/minute-ledger-entry.entity';

export class UsageHistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: LEDGER_TYPES })
  @IsOptional()
  @IsIn(LEDGER_TYPES)
  type?: LedgerType;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Rows created at or after (years 1970-9999)',
  })
  @IsOptional()
  @Type(() => Date)
  @IsBoundedDate()
  from?: Date;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Rows created at or before (years 1970-9999)',
  })
  @IsOptional()
  @Type(() => Date)
  @IsBoundedDate()
  to?: Date;
}
