import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { ListCallsQueryDto } from '../../calls/dto/list-calls-query.dto';

/** The calls list's filters, plus the console's search by number. */
export class ConsoleListCallsQueryDto extends ListCallsQueryDto {
  @ApiPropertyOptional({
    example: '+14155550187',
    description: 'Extension: calls to or from this number (E.164; spaces and dashes are accepted and normalised)',
  })
  @IsOptional()
  @IsE164()
  number?: string;
}
