import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OutboundAssistant } from '../assistants/outbound-assistant.entity';
import { Case } from '../cases/case.entity';
import { Prompt } from '../cases/prompt.entity';
import { Contact } from '../contacts/contact.entity';
import { ResolutionInput } from './call-resolution';

export interface CallReferenceIds {
  contactId?: string;
  caseId?: string;
  assistantConfigId?: string;
}

/**
 * Reads what a new call refers to, scoped to the organization (another organization's id is 404 like a missing
 * one). The case and the assistant are locked FOR SHARE in the creating transaction: their deletes lock FOR
 * UPDATE and refuse while a queued call refers to them, so a committed call never points at a deleted row.
 */
@Injectable()
export class CallReferences {
  async load(manager: EntityManager, organizationId: string, ids: CallReferenceIds): Promise<Omit<ResolutionInput, 'request'>> {
    const contact = ids.contactId
      ? await manager.findOne(Contact, { where: { id: ids.contactId, organizationId } })
      : null;
    if (ids.contactId && !contact) throw ApiError.notFound('Contact');

    const kase = ids.caseId
      ? await manager.findOne(Case, { where: { id: ids.caseId, organizationId }, lock: { mode: 'pessimistic_read' } })
      : null;
    if (ids.caseId && !kase) throw ApiError.notFound('Case');

    const assistant = ids.assistantConfigId
      ? await manager.findOne(OutboundAssistant, {
          where: { id: ids.assistantConfigId, organizationId },
          lock: { mode: 'pessimistic_read' },
        })
      : null;
    if (ids.assistantConfigId && !assistant) throw ApiError.notFound('Outbound assistant');

    return {
      contact,
      case: kase ? { ...kase, prompt: await this.effectivePrompt(manager, kase) } : null,
      assistant,
    };
  }

  /** A case linked to a prompt-library entry uses the library version; its own `prompt` is only a fallback. */
  private async effectivePrompt(manager: EntityManager, kase: Case): Promise<string> {
    if (!kase.systemPromptId) return kase.prompt;
    const entry = await manager.findOne(Prompt, {
      where: { id: kase.systemPromptId, organizationId: kase.organizationId },
    });
    return entry?.content ?? kase.prompt;
  }
}
