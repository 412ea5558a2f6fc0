import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { Prompt } from './prompt.entity';
import { PromptsRepository } from './prompts.repository';

/** The organization's prompt library (entries are created by the dashboard, i.e. the admin API). */
@Injectable()
export class PromptsService {
  constructor(private readonly prompts: PromptsRepository) {}

  create(organizationId: string, content: string): Promise<Prompt> {
    return this.prompts.insert(organizationId, content);
  }

  /** The entry, if it belongs to the organization; 404 NOT_FOUND otherwise. */
  async mustExist(organizationId: string, id: string, manager?: EntityManager): Promise<Prompt> {
    const prompt = await this.prompts.find(organizationId, id, manager);
    if (!prompt) throw ApiError.notFound('Prompt');
    return prompt;
  }

  find(organizationId: string, id: string, manager?: EntityManager): Promise<Prompt | null> {
    return this.prompts.find(organizationId, id, manager);
  }
}
