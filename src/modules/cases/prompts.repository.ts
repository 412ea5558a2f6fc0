import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Prompt } from './prompt.entity';

/** The SQL of `prompts`. */
@Injectable()
export class PromptsRepository {
  constructor(@InjectRepository(Prompt) private readonly prompts: Repository<Prompt>) {}

  insert(organizationId: string, content: string): Promise<Prompt> {
    return this.prompts.save(this.prompts.create({ id: uuidv7(), organizationId, content }));
  }

  /** The organization's entry, read by `manager` when the caller holds a transaction. */
  find(organizationId: string, id: string, manager: EntityManager = this.prompts.manager): Promise<Prompt | null> {
    return manager.findOneBy(Prompt, { id, organizationId });
  }
}
