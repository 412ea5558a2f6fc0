import { Prompt } from './prompt.entity';

/** Admin API only: the spec shows prompt-library entries by id alone. */
export class PromptResponse {
  id: string;
  content: string;
  createdAt: string;

  static from(p: Prompt): PromptResponse {
    return { id: p.id, content: p.content, createdAt: p.createdAt.toISOString() };
  }
}
