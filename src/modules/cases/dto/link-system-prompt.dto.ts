import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

export class LinkSystemPromptDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    example: '0190f0c0-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
    description: "A prompt-library entry of the case's organization; null or omitted unlinks",
  })
  @IsOptional()
  @IsUUID()
  systemPromptId?: string | null;
}
