import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

/** Bound of each list (docs/tools.md, "Tools"). */
export const MAX_CASE_TOOLS = 20;

/** Replaces a case's two tool lists (admin API). */
export class AttachToolsDto {
  @ApiProperty({
    type: [String],
    maxItems: MAX_CASE_TOOLS,
    description: "The organization's tool ids, in order (400 naming `toolIds` for an id it does not have)",
  })
  @IsArray()
  @ArrayMaxSize(MAX_CASE_TOOLS)
  @IsUUID('all', { each: true })
  toolIds: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_CASE_TOOLS,
    description:
      'Ids of tools on the voice platform, passed through as they are (each at most 200 characters); omitted: none',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CASE_TOOLS)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  integrationToolIds?: string[];
}
