import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { DEFAULT_HAND_OFF_KEYWORDS, DEFAULT_MAX_BOT_REPLIES } from './chat-agent.entity';

export const MAX_HAND_OFF_KEYWORDS = 20;
export const HAND_OFF_KEYWORD_MAX_LENGTH = 50;
export const MAX_BOT_REPLIES_LIMIT = 50;

export class PutChatAgentDto {
  @ApiProperty({ description: 'Whether the agent answers inbound user messages' })
  @IsBoolean()
  enabled: boolean;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The case (script) whose resolved prompt the agent answers with; of the account's organization",
  })
  @IsOptional()
  @IsUUID()
  caseId?: string | null;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      "The outbound assistant whose model (and, without a case, prompt) the agent uses; of the account's organization",
  })
  @IsOptional()
  @IsUUID()
  assistantConfigId?: string | null;
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_HAND_OFF_KEYWORDS,
    default: DEFAULT_HAND_OFF_KEYWORDS,
    description: `Words (whole word, any case) that hand the conversation to a person; each 1-${HAND_OFF_KEYWORD_MAX_LENGTH} letters, digits, spaces or hyphens`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HAND_OFF_KEYWORDS)
  @IsString({ each: true })
  @Length(1, HAND_OFF_KEYWORD_MAX_LENGTH, { each: true })
  @Matches(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, {
    each: true,
    message: 'each keyword is letters, digits, spaces or hyphens',
  })
  handOffKeywords?: string[];
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_BOT_REPLIES_LIMIT,
    default: DEFAULT_MAX_BOT_REPLIES,
    description: 'After this many bot replies in a row the conversation is handed off to a person',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_BOT_REPLIES_LIMIT)
  maxBotReplies?: number;
  @ApiPropertyOptional({ default: true, description: "Keep the conversation's aiSummary current" })
  @IsOptional()
  @IsBoolean()
  summary?: boolean;
}
