import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Prompt } from './prompt.entity';

/** The organization's prompt library (entries are created by the dashboard, i.e. the admin API). */
@Injectable()
export class PromptsService {
  constructor(@InjectRepository(Prompt) private readonly prompts: Repository<Prompt>) {}

  create(organizationId: string, content: string): Promise<Prompt> {
    return this.prompts.save(this.prompts.create({ id: uuidv7(), organizationId, content }));
  }

  /** The entry, if it belongs to the organization; 404 NOT_FOUND otherwise. */
  async mustExist(organizationId: string, id: string, manager?: EntityManager): Promise<Prompt> {
    const repo = manager ? manager.getRepository(Prompt) : this.prompts;
    const prompt = await repo.findOneBy({ id, organizationId });
    if (!prompt) throw ApiError.notFound('Prompt');
    return prompt;
  }

  find(organizationId: string, id: string, manager?: EntityManager): Promise<Prompt | null> {
    return (manager ? manager.getRepository(Prompt) : this.prompts).findOneBy({ id, organizationId });
  }
}
