import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { CreateMessagingAccountDto } from './dto/create-messaging-account.dto';
import { CreateMessagingTemplateDto } from './dto/create-messaging-template.dto';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { MessagingCredentials } from './messaging-credentials';
import { MessagingTemplate, TemplateStatus } from './messaging-template.entity';
import { MessagingTemplatesRepository } from './messaging-templates.repository';
import { isUniqueViolation } from '../../infra/database/pg-errors';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { World } from '../../common/auth/world';
import type { ProviderTemplate } from './providers/messaging-provider';
import { inTransaction } from '../../infra/database/tx';

/**
 * The list is not paginated, so its length is capped (README limits table, OpenAPI): a business connects a few
 * numbers, not hundreds.
 */
export const MAX_MESSAGING_ACCOUNTS = 20;
const ACCOUNT_CAP: OrganizationCap<MessagingAccount> = {
  entity: MessagingAccount,
  max: MAX_MESSAGING_ACCOUNTS,
  lockSpace: 'messagingAccountsCap',
  refusal: () =>
    new ApiError(
      'MAX_MESSAGING_ACCOUNTS',
      `An organization can have at most ${MAX_MESSAGING_ACCOUNTS} messaging accounts`,
    ),
};

/** At most this many approved templates are listed for the console's reply box (docs/console.md). */
export const MAX_TEMPLATES_LISTED = 200;

@Injectable()
export class MessagingAccountsService {
  constructor(
    private readonly accounts: MessagingAccountsRepository,
    private readonly templates: MessagingTemplatesRepository,
    private readonly dataSource: DataSource,
    private readonly credentials: MessagingCredentials,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Not paginated (the spec shows `data` only), so capped per organization (MAX_MESSAGING_ACCOUNTS). */
  list(world: World): Promise<MessagingAccount[]> {
    return this.accounts.list(world);
  }

  /** Any organization's account: the admin API and provider callbacks are not bound to one organization. */
  async mustExist(id: string): Promise<MessagingAccount> {
    const account = await this.accounts.find(id);
    if (!account) throw ApiError.notFound('Messaging account');
    return account;
  }

  /** The account a provider webhook is addressed to. */
  findByPhoneNumberId(phoneNumberId: string): Promise<MessagingAccount | null> {
    return this.accounts.findByPhoneNumberId(phoneNumberId);
  }

  async create(organizationId: string, dto: CreateMessagingAccountDto): Promise<MessagingAccount> {
    const accessTokenSealed = dto.accessToken ? this.credentials.seal(dto.accessToken) : null;
    // Its platform is fixed now: a test account always uses the simulator, a live one MESSAGING_PROVIDER's.
    const livemode = dto.livemode ?? true;
    try {
      return await inTransaction(this.dataSource, async (m) => {
        await assertBelowCap(m, ACCOUNT_CAP, organizationId);
        return this.accounts.insert(m, {
          organizationId,
          livemode,
          platform: livemode ? this.config.messagingProvider : 'simulator',
          status: dto.status ?? 'active',
          statusMessage: dto.statusMessage ?? null,
          wabaId: dto.wabaId ?? null,
          phoneNumberId: dto.phoneNumberId ?? null,
          displayPhoneNumber: dto.displayPhoneNumber,
          verifiedName: dto.verifiedName,
          qualityRating: dto.qualityRating ?? 'UNKNOWN',
          accessTokenSealed,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.conflict('This phoneNumberId is already connected');
      throw error;
    }
  }

  listTemplates(accountId: string): Promise<MessagingTemplate[]> {
    return this.templates.listOf(accountId);
  }

  /** Sets (rotates) or clears the account's own access token; cleared, the process-wide token serves it. */
  async setAccessToken(id: string, token: string | null): Promise<MessagingAccount> {
    const account = await this.mustExist(id);
    account.accessTokenSealed = token ? this.credentials.seal(token) : null;
    await this.accounts.setAccessToken(id, account.accessTokenSealed);
    return account;
  }

  /**
   * Replaces the account's templates with the provider's list in one transaction: bodies, languages, statuses
   * and components as the provider has them; templates it no longer lists are removed.
   */
  async replaceTemplates(accountId: string, all: ProviderTemplate[]): Promise<{ synced: number; removed: number }> {
    // One row per name and language (an upsert may not touch a row twice): the provider's last word wins.
    const listed = [...new Map(all.map((t) => [`${t.name}\n${t.language}`, t])).values()];
    return inTransaction(this.dataSource, async (m) => ({
      synced: listed.length,
      removed: await this.templates.replace(m, accountId, listed),
    }));
  }

  /**
   * A provider's template status report, addressed by business account id and template name and language: every
   * account of that business account (or, for the process-wide one, the accounts without their own) follows it.
   */
  setTemplateStatus(
    wabaId: string,
    processWide: boolean,
    name: string,
    language: string,
    status: TemplateStatus,
  ): Promise<number> {
    return this.templates.setStatus(wabaId, processWide, name, language, status);
  }

  /** The APPROVED templates of one of the world's accounts, by name and language; null when it is not one of them. */
  async approvedTemplatesOf(world: World, accountId: string): Promise<MessagingTemplate[] | null> {
    const account = await this.accounts.findInWorld(world, accountId);
    if (!account) return null;
    return this.templates.listOf(accountId, MAX_TEMPLATES_LISTED);
  }

  /** An APPROVED template of that name and language on one of the organization's active accounts. */
  approvedTemplate(organizationId: string, name: string, language: string): Promise<MessagingTemplate | null> {
    return this.templates.approvedInOrganization(organizationId, name, language);
  }

  async createTemplate(accountId: string, dto: CreateMessagingTemplateDto): Promise<MessagingTemplate> {
    await this.mustExist(accountId);
    try {
      return await this.templates.insert({
        accountId,
        name: dto.name,
        language: dto.language,
        status: dto.status ?? 'APPROVED',
        body: dto.body,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.conflict('This template already exists in this language');
      throw error;
    }
  }
}
