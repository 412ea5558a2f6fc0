import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { inTransaction, Tx } from '../../infra/database/tx';
import { OutboundAssistantsService } from '../assistants/outbound-assistants.service';
import { CasesService } from '../cases/cases.service';
import { DestinationPolicyService } from '../destinations/destination-policy.service';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import { Campaign, CampaignSourceType } from './campaign.entity';
import { CampaignAudienceResolver } from './campaign-audience';
import { PreflightResult, preflightAudience } from './audience-preflight';
import { CampaignEntriesRepository } from './campaign-entries.repository';
import { CampaignsRepository } from './campaigns.repository';
import { CreateCampaignDto } from './dto/create-campaign.dto';
import { voicemailPolicyOf } from '../call-outcomes/voicemail-policy';
import { assignVariant, CampaignVariant } from './campaign-variants';

/** Zone of contacts whose own zone is unknown when the campaign has no window. */
const DEFAULT_ZONE = 'UTC';

/** How a campaign comes to be: its mode (a test key's campaigns place test calls) and what placed it, if not the API. */
export interface CampaignOrigin {
  livemode: boolean;
  source?: CampaignSource;
}

export interface CampaignSource {
  type: CampaignSourceType;
  id: string;
  /** Unique per source: the schedule occurrence or the call followed up. */
  key: string;
}

/** The request field the audience's `i`-th entry came from. */
function audienceField(dto: CreateCampaignDto, i: number): string {
  if (dto.audience.rows) return `audience.rows.${i}.to`;
  if (dto.audience.contactIds) return `audience.contactIds.${i}`;
  return 'audience.groupId';
}

/** Variants need a case, and each names a version it has (1 to its current one). */
function assertVariantsOf(currentVersion: number | null, variants: readonly CampaignVariant[]): void {
  if (currentVersion === null) throw ApiError.validation('variants', 'variants need caseId');
  const unknown = variants.findIndex((v) => v.caseVersion > currentVersion);
  if (unknown >= 0) {
    throw ApiError.validation(
      `variants[${unknown}].caseVersion`,
      `the case has no version ${variants[unknown].caseVersion} (its current one is ${currentVersion})`,
    );
  }
}

/** A campaign created from the API, with what its audience's preflight refused or dropped. */
export interface CreatedCampaign {
  campaign: Campaign;
  preflight: PreflightResult;
}

/**
 * Creates a campaign with all its entries, in one transaction (nothing half-written on failure): in `draft`
 * from the API; `scheduled` (it starts at `startAt`) when a recurring schedule or a follow-up places it, once
 * per source key — a second creation for the same key creates nothing and returns null. Two ways in: `execute`
 * in a transaction of its own (the API, follow-ups), `executeIn` in the caller's (a required `Tx`: the recurring
 * schedule runner, which holds its due schedules locked meanwhile).
 */
@Injectable()
export class CreateCampaignCommand {
  constructor(
    private readonly dataSource: DataSource,
    private readonly numbers: PhoneNumbersService,
    private readonly cases: CasesService,
    private readonly assistants: OutboundAssistantsService,
    private readonly audience: CampaignAudienceResolver,
    private readonly campaigns: CampaignsRepository,
    private readonly entries: CampaignEntriesRepository,
    private readonly destinations: DestinationPolicyService,
  ) {}

  /** From the API (no source): always creates, or refuses with the rows named. */
  async fromApi(organizationId: string, dto: CreateCampaignDto, livemode: boolean): Promise<CreatedCampaign> {
    const created = await inTransaction(this.dataSource, (tx) => this.create(tx, organizationId, dto, { livemode }));
    return created!;
  }

  async execute(organizationId: string, dto: CreateCampaignDto, origin: CampaignOrigin): Promise<Campaign | null> {
    return (
      (await inTransaction(this.dataSource, (tx) => this.create(tx, organizationId, dto, origin)))?.campaign ?? null
    );
  }

  async executeIn(
    tx: Tx,
    organizationId: string,
    dto: CreateCampaignDto,
    origin: CampaignOrigin,
  ): Promise<Campaign | null> {
    return (await this.create(tx, organizationId, dto, origin))?.campaign ?? null;
  }

  private async create(
    tx: Tx,
    organizationId: string,
    dto: CreateCampaignDto,
    origin: CampaignOrigin,
  ): Promise<CreatedCampaign | null> {
    const { livemode, source } = origin;
    // Every read on the caller's connection: a caller holding it while this waited for a second one would
    // deadlock the pool once as many such callers as connections run together.
    if (dto.from !== undefined && dto.fromNumbers !== undefined) {
      throw ApiError.validation('from', 'give either from or fromNumbers, not both');
    }
    const callerIds = dto.fromNumbers ?? [dto.from!];
    for (const [i, number] of callerIds.entries()) {
      if (!(await this.numbers.findOwnedIn(tx, organizationId, number))) {
        const field = dto.fromNumbers ? `fromNumbers[${i}]` : 'from';
        throw new ApiError('INVALID_PHONE', `${field}: ${number} is not a phone number of this organization`);
      }
    }
    const caseFound = dto.caseId ? await this.cases.getForCall(tx, organizationId, dto.caseId) : null;
    const variants = dto.variants?.map((v) => ({ caseVersion: v.caseVersion, weight: v.weight })) ?? null;
    if (variants) assertVariantsOf(caseFound?.version ?? null, variants);
    if (dto.assistantConfigId) await this.assistants.getForCall(tx, organizationId, dto.assistantConfigId);
    // The audience's contacts are the campaign's world's; the group, case and assistant are configuration.
    const { audience, candidates } = await this.audience.resolve(
      tx,
      { organizationId, livemode },
      dto.audience,
      dto.window?.timezone ?? DEFAULT_ZONE,
    );
    // From the API a row that could not be called refuses the campaign, like a malformed one, naming it (or,
    // with skipInvalidRows, is left out and answered); a schedule's or a follow-up's campaign is placed anyway
    // and its uncallable entries are skipped when dialled, with the reason (docs/contracts/destinations.md).
    let refusedNumbers = new Map<string, string>();
    if (!source && dto.skipInvalidRows) {
      refusedNumbers = await this.destinations.refusalMessages(
        tx,
        organizationId,
        candidates.map((c) => c.entry.to),
      );
    } else if (!source) {
      // Kept as the first check, with its own code: a refused number is DESTINATION_NOT_ALLOWED.
      await this.destinations.assertAllowed(
        tx,
        organizationId,
        candidates.map((c, i) => ({ number: c.entry.to, field: audienceField(dto, i) })),
      );
    }
    const preflight = preflightAudience(candidates, {
      variables: source ? [] : (caseFound?.case.variables ?? []),
      refusedNumbers,
      skipInvalidRows: dto.skipInvalidRows ?? false,
    });
    const campaign = await this.campaigns.insertOnce(
      tx,
      tx.create(Campaign, {
        id: uuidv7(),
        organizationId,
        name: dto.name,
        status: source ? 'scheduled' : 'draft',
        livemode,
        sourceType: source?.type ?? null,
        sourceId: source?.id ?? null,
        sourceKey: source?.key ?? null,
        pausedReason: null,
        callFrom: callerIds[0],
        fromNumbers: dto.fromNumbers ?? null,
        maxCallsPerNumberPerDay: dto.maxCallsPerNumberPerDay ?? null,
        caseId: dto.caseId ?? null,
        variants,
        assistantConfigId: dto.assistantConfigId ?? null,
        firstMessage: dto.firstMessage ?? null,
        audience,
        startAt: dto.startAt ? new Date(dto.startAt) : null,
        window: dto.window ? { ...dto.window } : null,
        maxConcurrent: dto.maxConcurrent ?? null,
        callsPerMinute: dto.callsPerMinute ?? null,
        retry: dto.retry ? { ...dto.retry } : null,
        voicemail: dto.voicemail ? voicemailPolicyOf(dto.voicemail) : null,
      }),
    );
    if (!campaign) return null;
    const entries = variants
      ? preflight.entries.map((e) => ({ ...e, caseVersion: assignVariant(e.id, variants).caseVersion }))
      : preflight.entries;
    await this.entries.insertMany(tx, campaign.id, organizationId, entries);
    return { campaign, preflight };
  }
}
