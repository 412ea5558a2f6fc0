import { IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';

export class ListScenariosQueryDto extends PageQueryDto {
  /** Only the scenarios of this case. */
  @IsOptional() @IsUUID() caseId?: string;
}
