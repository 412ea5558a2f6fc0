import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { Campaign } from './campaign.entity';
import { CampaignAttemptsRepository } from './campaign-attempts.repository';
import { CampaignEntriesRepository } from './campaign-entries.repository';
import { CampaignEntryResponse } from './campaign-entry.response';
import { CampaignResponse } from './campaign.response';
import { CampaignsRepository } from './campaigns.repository';
import { World } from '../../common/auth/world';
import { CallStatsService } from '../calls/call-stats.service';
import { CampaignVariantsResponse } from './campaign-variants.response';

/** Campaign reads: the Campaign with its progress, and its entries with their attempts. */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly campaigns: CampaignsRepository,
    private readonly entries: CampaignEntriesRepository,
    private readonly attempts: CampaignAttemptsRepository,
    private readonly cursors: CursorCodec,
    private readonly callStats: CallStatsService,
  ) {}

  /** The campaign's variants side by side, with the z-test's p-value for two (docs/testing-your-assistant.md). */
  async variants(world: World, id: string): Promise<CampaignVariantsResponse> {
    const campaign = await this.get(world, id);
    if (!campaign.variants) return { variants: [], pValue: null };
    const [entries, totals] = await Promise.all([
      this.entries.countByCaseVersion(id),
      this.callStats.totalsByCaseVersion(world, id),
    ]);
    return CampaignVariantsResponse.from(campaign.variants, entries, totals);
  }

  async get(world: World, id: string): Promise<Campaign> {
    const campaign = await this.campaigns.find(world, id);
    if (!campaign) throw ApiError.notFound('Campaign');
    return campaign;
  }

  async present(campaign: Campaign): Promise<CampaignResponse> {
    const progress = await this.campaigns.progress([campaign.id]);
    return CampaignResponse.from(campaign, progress.get(campaign.id)!);
  }

  async list(world: World, query: PageQueryDto): Promise<Page<CampaignResponse>> {
    const qb = this.campaigns.queryBuilder(world);
    const page = await keysetPaginate(qb, {
      alias: 'c',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.cursors,
      filters: {},
      map: (c: Campaign) => c,
    });
    const progress = await this.campaigns.progress(page.data.map((c) => c.id));
    return { ...page, data: page.data.map((c) => CampaignResponse.from(c, progress.get(c.id)!)) };
  }

  async listEntries(world: World, id: string, query: PageQueryDto): Promise<Page<CampaignEntryResponse>> {
    await this.get(world, id);
    const page = await keysetPaginate(this.entries.pageQuery(id), {
      alias: 'e',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.cursors,
      filters: { campaignId: id },
      map: (e) => e,
    });
    const attempts = await this.attempts.forEntries(
      page.data.map((e) => e.id),
      this.dataSource.manager,
    );
    return { ...page, data: page.data.map((e) => CampaignEntryResponse.from(e, attempts.get(e.id) ?? [])) };
  }
}
