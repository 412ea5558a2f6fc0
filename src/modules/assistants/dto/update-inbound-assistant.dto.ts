import { IsOptional, IsString, IsUUID, Length } from 'class-validator';

export class UpdateInboundAssistantDto {
  @IsOptional() @IsString() @Length(1, 200) name?: string;
  /** A prompt-library entry of the organization (404 NOT_FOUND otherwise). */
  @IsOptional() @IsUUID() systemPromptId?: string;
}
