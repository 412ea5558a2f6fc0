import { IsOptional, IsUUID } from 'class-validator';

export class LinkSystemPromptDto {
  /** A prompt-library entry of the case's organization, or null to unlink. */
  @IsOptional() @IsUUID() systemPromptId?: string | null;
}
