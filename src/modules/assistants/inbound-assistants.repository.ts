import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { InboundAssistant } from './inbound-assistant.entity';

/** The SQL of `inbound_assistants`. */
@Injectable()
export class InboundAssistantsRepository {
  constructor(@InjectRepository(InboundAssistant) private readonly assistants: Repository<InboundAssistant>) {}

  /** The organization's assistants, newest first. */
  list(organizationId: string): Promise<InboundAssistant[]> {
    // The response's columns, named, so a column added later is not read by the list.
    return this.assistants.find({
      select: { id: true, name: true, systemPromptId: true, createdAt: true },
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  find(organizationId: string, id: string): Promise<InboundAssistant | null> {
    return this.assistants.findOneBy({ id, organizationId });
  }

  /** In the transaction that checked the organization's cap. */
  insert(tx: Tx, organizationId: string, name: string, systemPromptId: string): Promise<InboundAssistant> {
    return tx.save(tx.create(InboundAssistant, { id: uuidv7(), organizationId, name, systemPromptId }));
  }

  async update(organizationId: string, id: string, patch: Partial<InboundAssistant>): Promise<void> {
    await this.assistants.update({ id, organizationId }, patch);
  }
}
