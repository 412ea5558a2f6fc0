import { IsOptional, IsString, Length } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';

export class ListCasesQueryDto extends PageQueryDto {
  /** Case-insensitive substring of the title, 2-100 characters. */
  @IsOptional() @IsString() @Length(2, 100) search?: string;
}
