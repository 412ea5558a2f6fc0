import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { MessagingTemplate } from './messaging-template.entity';

/** The SQL of `messaging_templates`. */
@Injectable()
export class MessagingTemplatesRepository {
  constructor(@InjectRepository(MessagingTemplate) private readonly templates: Repository<MessagingTemplate>) {}

  /** The account's APPROVED template of this name and language, or null. */
  findApproved(accountId: string, name: string, language: string): Promise<MessagingTemplate | null> {
    return this.templates.findOneBy({ accountId, name, language, status: 'APPROVED' });
  }
}
