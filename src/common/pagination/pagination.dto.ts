import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class PaginationDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Opaque cursor for the next page; null when hasMore is false',
  })
  cursor: string | null;
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ description: 'The effective limit of this request', example: 25 }) pageSize: number;
}

/** `limit` (1-100, default 25) and `cursor`, shared by every paginated list. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 25 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'From the previous page of the same query' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

export interface Page<T> {
  data: T[];
  pagination: PaginationDto;
}
