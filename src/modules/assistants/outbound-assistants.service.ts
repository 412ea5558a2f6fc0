import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import {
  DEFAULT_TEMPERATURE,
  DEFAULT_TRANSCRIBER,
  ModelConfigDto,
  TranscriberConfigDto,
  VoiceConfigDto,
} from './dto/assistant-configs.dto';
import { CreateOutboundAssistantDto } from './dto/create-outbound-assistant.dto';
import { UpdateOutboundAssistantDto } from './dto/update-outbound-assistant.dto';
import { ModelConfig, OutboundAssistant, TranscriberConfig, VoiceConfig } from './outbound-assistant.entity';
import { OutboundAssistantSummary } from './outbound-assistant.response';
import { OutboundAssistantsRepository } from './outbound-assistants.repository';
import { inTransaction, Tx } from '../../infra/database/tx';
import { lockOutboundAssistantDefault } from '../../infra/database/advisory-locks';
import { voicemailPolicyOf } from '../call-outcomes/voicemail-policy';

/** Plain JSON without absent keys: stored exactly as the API will show it. */
const voiceConfig = (v: VoiceConfigDto): VoiceConfig => JSON.parse(JSON.stringify({ ...v })) as VoiceConfig;
const modelConfig = (m: ModelConfigDto): ModelConfig => ({
  provider: m.provider,
  model: m.model,
  temperature: m.temperature ?? DEFAULT_TEMPERATURE,
});
const transcriberConfig = (t: TranscriberConfigDto): TranscriberConfig => ({
  provider: t.provider,
  model: t.model,
  language: t.language ?? DEFAULT_TRANSCRIBER.language,
});

/** The list is not paginated, so its length is capped (README limits table, OpenAPI). */
export const MAX_OUTBOUND_ASSISTANTS = 100;
const ASSISTANT_CAP: OrganizationCap<OutboundAssistant> = {
  entity: OutboundAssistant,
  max: MAX_OUTBOUND_ASSISTANTS,
  lockSpace: 'outboundAssistantsCap',
  refusal: () =>
    new ApiError('MAX_ASSISTANTS', `An organization can have at most ${MAX_OUTBOUND_ASSISTANTS} outbound assistants`),
};

@Injectable()
export class OutboundAssistantsService {
  constructor(
    private readonly assistants: OutboundAssistantsRepository,
    private readonly dataSource: DataSource,
    private readonly blockers: ReferenceRegistry,
  ) {}

  /**
   * Not paginated (the spec shows `data` only), so capped per organization (MAX_OUTBOUND_ASSISTANTS); newest
   * first. The summary's columns only: never the system prompt (up to 50,000 characters each).
   */
  list(organizationId: string): Promise<OutboundAssistantSummary[]> {
    return this.assistants.list(organizationId);
  }

  /** The organization's default assistant, whole (at most one: a partial unique index), or null. */
  getDefault(organizationId: string): Promise<OutboundAssistant | null> {
    return this.assistants.findDefault(organizationId);
  }

  /** The same read in the caller's transaction (a call being created copies its voice settings). */
  getDefaultIn(tx: Tx, organizationId: string): Promise<OutboundAssistant | null> {
    return this.assistants.findDefault(organizationId, tx);
  }

  async get(organizationId: string, id: string): Promise<OutboundAssistant> {
    const found = await this.assistants.find(organizationId, id);
    if (!found) throw ApiError.notFound('Outbound assistant');
    return found;
  }

  /** Whether the organization has this assistant (a setting that names it checks it is the organization's own). */
  async exists(organizationId: string, id: string): Promise<boolean> {
    return (await this.assistants.find(organizationId, id)) !== null;
  }

  create(organizationId: string, dto: CreateOutboundAssistantDto): Promise<OutboundAssistant> {
    return inTransaction(this.dataSource, async (m) => {
      // The cap's lock before the default's: update takes only the latter, so the two cannot deadlock.
      await assertBelowCap(m, ASSISTANT_CAP, organizationId);
      const id = uuidv7();
      if (dto.isDefault) await this.takeDefault(m, organizationId, id);
      return this.assistants.insert(m, {
        id,
        organizationId,
        name: dto.name,
        description: dto.description ?? null,
        isDefault: dto.isDefault ?? false,
        voice: voiceConfig(dto.voice),
        model: modelConfig(dto.model),
        transcriber: transcriberConfig(dto.transcriber ?? DEFAULT_TRANSCRIBER),
        firstMessage: dto.firstMessage ?? null,
        systemPrompt: dto.systemPrompt ?? null,
        dialKeypadFunctionEnabled: dto.dialKeypadFunctionEnabled ?? false,
        backchannelingEnabled: dto.backchannelingEnabled ?? true,
        backgroundDenoisingEnabled: dto.backgroundDenoisingEnabled ?? true,
        voicemail: dto.voicemail ? voicemailPolicyOf(dto.voicemail) : null,
      });
    });
  }

  update(organizationId: string, id: string, dto: UpdateOutboundAssistantDto): Promise<OutboundAssistant> {
    return inTransaction(this.dataSource, async (m) => {
      // The advisory lock before the row lock, in the same order as create, so two requests cannot deadlock.
      if (dto.isDefault) await this.takeDefault(m, organizationId, id);
      const current = await this.lock(m, organizationId, id, 'pessimistic_write');
      const patch: Partial<OutboundAssistant> = {};
      if (dto.name != null) patch.name = dto.name;
      if (dto.voice != null) patch.voice = voiceConfig(dto.voice);
      if (dto.model != null) patch.model = modelConfig(dto.model);
      if (dto.transcriber != null) patch.transcriber = transcriberConfig(dto.transcriber);
      if (dto.isDefault != null) patch.isDefault = dto.isDefault;
      if (dto.dialKeypadFunctionEnabled != null) patch.dialKeypadFunctionEnabled = dto.dialKeypadFunctionEnabled;
      if (dto.backchannelingEnabled != null) patch.backchannelingEnabled = dto.backchannelingEnabled;
      if (dto.backgroundDenoisingEnabled != null) patch.backgroundDenoisingEnabled = dto.backgroundDenoisingEnabled;
      // The nullable texts: null clears them.
      if (dto.description !== undefined) patch.description = dto.description;
      if (dto.firstMessage !== undefined) patch.firstMessage = dto.firstMessage;
      if (dto.systemPrompt !== undefined) patch.systemPrompt = dto.systemPrompt;
      if (dto.voicemail !== undefined) patch.voicemail = dto.voicemail ? voicemailPolicyOf(dto.voicemail) : null;
      // Values equal to the stored ones are no change: a GET body sent back leaves `updatedAt` as it was.
      for (const key of Object.keys(patch) as Array<keyof OutboundAssistant>) {
        if (isDeepStrictEqual(patch[key], current[key])) delete patch[key];
      }
      if (!Object.keys(patch).length) return current;
      return this.assistants.update(m, organizationId, id, patch);
    });
  }

  /** Check and delete in one transaction holding the row `FOR UPDATE` (see ReferenceRegistry). */
  async delete(organizationId: string, id: string): Promise<void> {
    await inTransaction(this.dataSource, async (m) => {
      await this.lock(m, organizationId, id, 'pessimistic_write');
      await this.blockers.assertNone(m, organizationId, { assistantConfigId: id }, 'Outbound assistant');
      await this.assistants.delete(m, organizationId, id);
    });
  }

  /**
   * For the calls module (and automations naming it): the assistant or 404 NOT_FOUND('Outbound assistant'), read
   * in the transaction that inserts the referring row (a required `Tx`), so the row is locked `FOR SHARE` and a
   * concurrent delete waits for it.
   */
  getForCall(tx: Tx, organizationId: string, id: string): Promise<OutboundAssistant> {
    return this.lock(tx, organizationId, id, 'pessimistic_read');
  }

  /**
   * Makes `id` the only candidate default: a per-organization advisory lock serialises concurrent default
   * changes (so the partial unique index never rejects one), then the previous default is unset.
   */
  private async takeDefault(m: Tx, organizationId: string, id: string): Promise<void> {
    await lockOutboundAssistantDefault(m, organizationId);
    await this.assistants.unsetDefaultExcept(m, organizationId, id);
  }

  private async lock(
    m: Tx,
    organizationId: string,
    id: string,
    lock: 'pessimistic_read' | 'pessimistic_write',
  ): Promise<OutboundAssistant> {
    const found = await this.assistants.lock(m, organizationId, id, lock);
    if (!found) throw ApiError.notFound('Outbound assistant');
    return found;
  }
}
