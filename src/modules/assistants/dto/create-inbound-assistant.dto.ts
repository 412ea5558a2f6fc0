import { IsString, IsUUID, Length } from 'class-validator';

export class CreateInboundAssistantDto {
  @IsString() @Length(1, 200) name: string;
  @IsUUID() systemPromptId: string;
}
