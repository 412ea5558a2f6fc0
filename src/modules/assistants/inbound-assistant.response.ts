import { ApiProperty } from '@nestjs/swagger';
import { InboundAssistant } from './inbound-assistant.entity';

export class InboundAssistantResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Front desk' }) name: string;
  @ApiProperty({ format: 'uuid', description: 'Prompt-library entry the assistant answers with' })
  systemPromptId: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(a: InboundAssistant): InboundAssistantResponse {
    return { id: a.id, name: a.name, systemPromptId: a.systemPromptId, createdAt: a.createdAt.toISOString() };
  }
}
