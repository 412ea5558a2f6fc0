import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';

export const SEARCH_DEFAULT_LIMIT = 10;

export class SearchContactsQueryDto {
  @ApiProperty({
    description:
      'Required, 2-100 characters (surrounding spaces ignored). Matches names (case-insensitive; exact, prefix, ' +
      'word prefix, substring, then typo-tolerant) and, when it looks like a phone number, phone digits ' +
      '("+1 415 55" and "4155" both find +14155550187).',
    minLength: 2,
    maxLength: 100,
    example: 'ali',
  })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(2, 100)
  q: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 50, default: SEARCH_DEFAULT_LIMIT })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  limit: number = SEARCH_DEFAULT_LIMIT;
}
