import { ApiProperty } from '@nestjs/swagger';
import { ChatAgent } from './chat-agent.entity';

export class ChatAgentResponse {
  @ApiProperty({ format: 'uuid', description: 'The messaging account' }) accountId: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) caseId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assistantConfigId: string | null;
  @ApiProperty({ type: [String] }) handOffKeywords: string[];
  @ApiProperty({ minimum: 1, maximum: 50 }) maxBotReplies: number;
  @ApiProperty() summary: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until the agent is first set' })
  updatedAt: string | null;

  static from(a: ChatAgent): ChatAgentResponse {
    return {
      accountId: a.accountId,
      enabled: a.enabled,
      caseId: a.caseId,
      assistantConfigId: a.assistantConfigId,
      handOffKeywords: a.handOffKeywords,
      maxBotReplies: a.maxBotReplies,
      summary: a.summary,
      updatedAt: a.updatedAt?.toISOString() ?? null,
    };
  }
}
