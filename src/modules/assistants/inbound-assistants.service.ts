import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { PromptsService } from '../cases/prompts.service';
import { UpdateInboundAssistantDto } from './dto/update-inbound-assistant.dto';
import { InboundAssistant } from './inbound-assistant.entity';
import { InboundAssistantsRepository } from './inbound-assistants.repository';
import { inTransaction } from '../../infra/database/tx';

/** The list is not paginated, so its length is capped (README limits table, OpenAPI). */
export const MAX_INBOUND_ASSISTANTS = 100;
const INBOUND_ASSISTANT_CAP: OrganizationCap<InboundAssistant> = {
  entity: InboundAssistant,
  max: MAX_INBOUND_ASSISTANTS,
  lockSpace: 'inboundAssistantsCap',
  refusal: () =>
    new ApiError('MAX_ASSISTANTS', `An organization can have at most ${MAX_INBOUND_ASSISTANTS} inbound assistants`),
};

@Injectable()
export class InboundAssistantsService {
  constructor(
    private readonly assistants: InboundAssistantsRepository,
    private readonly prompts: PromptsService,
    private readonly dataSource: DataSource,
  ) {}

  /** Not paginated (the spec shows `data` only), so capped per organization (MAX_INBOUND_ASSISTANTS); newest first. */
  list(organizationId: string): Promise<InboundAssistant[]> {
    return this.assistants.list(organizationId);
  }

  async get(organizationId: string, id: string): Promise<InboundAssistant> {
    const found = await this.assistants.find(organizationId, id);
    if (!found) throw ApiError.notFound('Inbound assistant');
    return found;
  }

  async create(organizationId: string, name: string, systemPromptId: string): Promise<InboundAssistant> {
    await this.prompts.mustExist(organizationId, systemPromptId);
    return inTransaction(this.dataSource, async (m) => {
      await assertBelowCap(m, INBOUND_ASSISTANT_CAP, organizationId);
      return this.assistants.insert(m, organizationId, name, systemPromptId);
    });
  }

  /** Null or omitted fields stay; a `systemPromptId` outside the organization's library is 404 NOT_FOUND. */
  async update(organizationId: string, id: string, dto: UpdateInboundAssistantDto): Promise<InboundAssistant> {
    const current = await this.get(organizationId, id);
    if (dto.systemPromptId != null) await this.prompts.mustExist(organizationId, dto.systemPromptId);
    const patch: Partial<InboundAssistant> = {};
    if (dto.name != null) patch.name = dto.name;
    if (dto.systemPromptId != null) patch.systemPromptId = dto.systemPromptId;
    if (!Object.keys(patch).length) return current;
    await this.assistants.update(organizationId, id, patch);
    return this.get(organizationId, id);
  }
}
