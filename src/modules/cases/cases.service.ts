import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { Case, CaseVariable } from './case.entity';
import { CaseListItemResponse } from './case.response';
import { changesVersion, contentOf } from './case-content';
import { CaseVersionResponse } from './case-version.response';
import { CaseVersionsRepository } from './case-versions.repository';
import { CasesRepository } from './cases.repository';
import { CaseVariableDto } from './dto/case-variable.dto';
import { CreateCaseDto } from './dto/create-case.dto';
import { ListCasesQueryDto } from './dto/list-cases-query.dto';
import { UpdateCaseDto } from './dto/update-case.dto';
import { PromptsService } from './prompts.service';
import { inTransaction, Tx } from '../../infra/database/tx';
import { analysisPlanOf } from '../call-outcomes/analysis-plan';
import { voicemailPolicyOf } from '../call-outcomes/voicemail-policy';
import { ToolsService } from '../tools/tools.service';

/**
 * A case as a call uses it: its content is the version's the call names (else the current one), `prompt` the
 * effective system prompt (the library entry's when that version is linked), `version` the one used.
 */
export interface CaseForCall {
  case: Case;
  prompt: string;
  version: number;
}

/** The fields PATCH may change; everything else (ids, tools, prompt link, timestamps) is read-only. */
const EDITABLE = [
  'title',
  'prompt',
  'firstMessage',
  'description',
  'tags',
  'variables',
  'keyterms',
  'voicemail',
  'analysis',
] as const;

/** Plain objects without absent optional keys, so stored JSON is exactly what the API shows. */
function toVariables(dtos: CaseVariableDto[]): CaseVariable[] {
  return dtos.map((v) => ({
    name: v.name,
    source: v.source,
    ...(v.defaultValue != null ? { defaultValue: v.defaultValue } : {}),
    ...(v.required != null ? { required: v.required } : {}),
  }));
}

@Injectable()
export class CasesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cases: CasesRepository,
    private readonly versions: CaseVersionsRepository,
    private readonly prompts: PromptsService,
    private readonly blockers: ReferenceRegistry,
    private readonly codec: CursorCodec,
    private readonly tools: ToolsService,
  ) {}

  list(organizationId: string, query: ListCasesQueryDto): Promise<Page<CaseListItemResponse>> {
    return keysetPaginate(this.cases.listQuery(organizationId, query.search), {
      alias: 'c',
      filters: { search: query.search },
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      map: CaseListItemResponse.from,
    });
  }

  async get(organizationId: string, id: string): Promise<Case> {
    const found = await this.cases.find(organizationId, id);
    if (!found) throw ApiError.notFound('Case');
    return found;
  }

  /** Whether the organization has this case (a setting that names it checks it is the organization's own). */
  async exists(organizationId: string, id: string): Promise<boolean> {
    return (await this.cases.find(organizationId, id)) !== null;
  }

  /** A case's versions, newest first; 404 for a case the organization does not have. */
  async listVersions(organizationId: string, caseId: string, query: PageQueryDto): Promise<Page<CaseVersionResponse>> {
    await this.get(organizationId, caseId);
    return keysetPaginate(this.versions.listQuery(organizationId, caseId), {
      alias: 'v',
      filters: { caseId },
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      map: CaseVersionResponse.from,
    });
  }

  /** The case with version 1 of its content, in one transaction. */
  create(organizationId: string, dto: CreateCaseDto): Promise<Case> {
    return inTransaction(this.dataSource, async (m) => {
      const created = await this.cases.insert(m, organizationId, {
        title: dto.title,
        prompt: dto.prompt,
        firstMessage: dto.firstMessage ?? '',
        description: dto.description ?? null,
        tags: dto.tags ?? [],
        variables: toVariables(dto.variables ?? []),
        keyterms: dto.keyterms ?? null,
        voicemail: dto.voicemail ? voicemailPolicyOf(dto.voicemail) : null,
        analysis: dto.analysis ? analysisPlanOf(dto.analysis) : null,
        systemPromptId: null,
        toolIds: [],
        integrationToolIds: [],
      });
      await this.versions.insert(m, { organizationId, caseId: created.id, version: 1 }, created);
      return created;
    });
  }

  /**
   * Only sent, non-null fields change. `prompt` on a case linked to the prompt library is a conflict unless it
   * is the stored value unchanged (a GET body sent back), which must keep succeeding. Nothing changed: no write,
   * `updatedAt` stays.
   */
  update(organizationId: string, id: string, dto: UpdateCaseDto): Promise<Case> {
    return inTransaction(this.dataSource, async (m) => {
      const current = await this.lockCase(m, organizationId, id, 'pessimistic_write');
      const next: Partial<Case> = {
        ...dto,
        variables: dto.variables != null ? toVariables(dto.variables) : undefined,
        voicemail: dto.voicemail != null ? voicemailPolicyOf(dto.voicemail) : undefined,
        analysis: dto.analysis != null ? analysisPlanOf(dto.analysis) : undefined,
      };
      const patch: Partial<Record<(typeof EDITABLE)[number], unknown>> = {};
      for (const key of EDITABLE) {
        const value = next[key];
        if (value != null && !isDeepStrictEqual(value, current[key])) patch[key] = value;
      }
      if (patch.prompt !== undefined && current.systemPromptId) {
        throw ApiError.conflict(
          'prompt: this case draws its prompt from the prompt library; it cannot be changed here',
        );
      }
      if (!Object.keys(patch).length) return current;
      return this.write(m, current, patch as Partial<Case>);
    });
  }

  /** Writes `fields` over the locked case, moving it to a new version when its content changes. */
  private async write(tx: Tx, current: Case, fields: Partial<Case>): Promise<Case> {
    if (!changesVersion(current, fields)) return this.cases.update(tx, current.id, fields);
    const version = current.version + 1;
    const updated = await this.cases.update(tx, current.id, { ...fields, version });
    await this.versions.insert(tx, { organizationId: current.organizationId, caseId: current.id, version }, updated);
    return updated;
  }

  /** Check and delete in one transaction holding the row `FOR UPDATE` (see ReferenceRegistry). */
  async delete(organizationId: string, id: string): Promise<void> {
    await inTransaction(this.dataSource, async (m) => {
      await this.lockCase(m, organizationId, id, 'pessimistic_write');
      await this.blockers.assertNone(m, organizationId, { caseId: id }, 'Case');
      await this.versions.deleteOfCase(m, id);
      await this.cases.delete(m, id);
    });
  }

  /**
   * For the calls module: the case and its effective prompt, or 404 NOT_FOUND('Case'), read in the transaction
   * that inserts the call (a required `Tx`): the case row is locked `FOR SHARE` until that transaction ends, so a
   * concurrent delete waits and counts the new call instead of leaving it pointing at a deleted case.
   */
  async getForCall(tx: Tx, organizationId: string, caseId: string, version?: number): Promise<CaseForCall> {
    const found = await this.lockCase(tx, organizationId, caseId, 'pessimistic_read');
    const kase = version == null ? found : { ...found, ...contentOf(await this.version(tx, found, version)) };
    const library = kase.systemPromptId ? await this.prompts.find(organizationId, kase.systemPromptId, tx) : null;
    return { case: kase, prompt: library?.content ?? kase.prompt, version: version ?? found.version };
  }

  private async version(tx: Tx, found: Case, version: number) {
    const row = await this.versions.find(tx, found.organizationId, found.id, version);
    if (!row) throw ApiError.validation('caseVersion', `caseVersion: the case has no version ${version}`);
    return row;
  }

  /**
   * For a record that names the case (a recurring schedule, a follow-up campaign): it must exist in the
   * organization (404 NOT_FOUND('Case')), locked `FOR SHARE` until `tx` ends, so a concurrent delete waits and
   * then counts the new reference.
   */
  async lockReferenced(tx: Tx, organizationId: string, caseId: string): Promise<void> {
    await this.lockCase(tx, organizationId, caseId, 'pessimistic_read');
  }

  /** Admin API: link a case (of any organization) to an entry of its organization's library, or unlink it. */
  linkSystemPrompt(caseId: string, systemPromptId: string | null): Promise<Case> {
    return inTransaction(this.dataSource, async (m) => {
      const found = await this.lockCase(m, null, caseId, 'pessimistic_write');
      if (systemPromptId) await this.prompts.mustExist(found.organizationId, systemPromptId, m);
      return this.write(m, found, { systemPromptId });
    });
  }

  /**
   * Admin API: replace a case's tool lists (duplicates dropped, order kept). The tools are locked `FOR SHARE`
   * while the case is written, so a tool being deleted meanwhile either waits and counts this case or is gone
   * (400 naming `toolIds`).
   */
  attachTools(caseId: string, toolIds: string[], integrationToolIds: string[]): Promise<Case> {
    return inTransaction(this.dataSource, async (m) => {
      const found = await this.lockCase(m, null, caseId, 'pessimistic_write');
      const ids = [...new Set(toolIds)];
      await this.tools.lockOwned(m, found.organizationId, ids);
      return this.write(m, found, { toolIds: ids, integrationToolIds: [...new Set(integrationToolIds)] });
    });
  }

  /** The organization's case (any organization's when `organizationId` is null), locked until `tx` ends; 404 if none. */
  private async lockCase(
    tx: Tx,
    organizationId: string | null,
    id: string,
    lock: 'pessimistic_read' | 'pessimistic_write',
  ): Promise<Case> {
    const found = await this.cases.lock(tx, organizationId, id, lock);
    if (!found) throw ApiError.notFound('Case');
    return found;
  }
}
