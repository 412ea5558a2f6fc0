import { ApiProperty } from '@nestjs/swagger';
import { Prompt } from './prompt.entity';

/** Admin API only: the spec shows prompt-library entries by id alone. */
export class PromptResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'You are the front desk of Acme Dental. Book, move or cancel appointments.' })
  content: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(p: Prompt): PromptResponse {
    return { id: p.id, content: p.content, createdAt: p.createdAt.toISOString() };
  }
}
