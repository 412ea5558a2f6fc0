import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';
import { CONTACT_LIMITS } from './contact-fields';

/** "vip, gold,,vip" -> ["gold", "vip"]: trimmed, empty parts dropped, de-duplicated and sorted (a stable filter). */
const splitTags = Transform(({ value }) =>
  typeof value === 'string'
    ? [
        ...new Set(
          value
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ].sort()
    : value,
);

export class ListContactsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Contacts whose name contains this text (case-insensitive) or whose phone digits contain its digits',
    maxLength: 200,
    example: 'alice',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only members of this contact group' })
  @IsOptional()
  @IsUUID('all')
  groupId?: string;

  @ApiPropertyOptional({
    type: String,
    description:
      'Comma-separated tags; a contact matches when it has ANY of them (e.g. `vip,gold` lists contacts tagged vip ' +
      'or gold). Tag matching is exact and case-sensitive.',
    example: 'vip,gold',
    // Each tag's bounds, stated here as well as by @Length: generated OpenAPI metadata keeps only literal bounds.
    minLength: 1,
    maxLength: CONTACT_LIMITS.tag,
  })
  @IsOptional()
  @splitTags
  @IsArray()
  @ArrayMaxSize(CONTACT_LIMITS.tags)
  @Length(1, CONTACT_LIMITS.tag, { each: true })
  tags?: string[];
}
