import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';
import { PUBLIC_CALL_STATUSES } from '../call.entity';

export class ListCallsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: PUBLIC_CALL_STATUSES })
  @IsOptional()
  @IsIn(PUBLIC_CALL_STATUSES)
  status?: (typeof PUBLIC_CALL_STATUSES)[number];

  @IsOptional() @IsUUID() contactId?: string;
  @IsOptional() @IsUUID() caseId?: string;

  /** Only calls created at or after this time (ISO 8601, years 1970-9999). */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsBoundedDate()
  from?: string;

  /** Only calls created before this time (ISO 8601, years 1970-9999). */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsBoundedDate()
  to?: string;
}
