import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CreateMessagingAccountDto } from './dto/create-messaging-account.dto';
import { CreateMessagingTemplateDto } from './dto/create-messaging-template.dto';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingCredentials } from './messaging-credentials';
import { MessagingTemplate, TemplateStatus } from './messaging-template.entity';
import { isUniqueViolation } from '../../infra/database/pg-errors';
import { World, worldWhere } from '../../common/auth/world';
import type { ProviderTemplate } from './providers/whatsapp/whatsapp-template-reader';
import { inTransaction } from '../../infra/database/tx';

/**
 * The list is not paginated, so its length is capped (README limits table, OpenAPI): a business connects a few
 * numbers, not hundreds.
 */
export const MAX_MESSAGING_ACCOUNTS = 20;
const TEMPLATE_WRITE_CHUNK = 1000;
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
    @InjectRepository(MessagingAccount) private readonly accounts: Repository<MessagingAccount>,
    @InjectRepository(MessagingTemplate) private readonly templates: Repository<MessagingTemplate>,
    private readonly dataSource: DataSource,
    private readonly credentials: MessagingCredentials,
  ) {}

  /** Not paginated (the spec shows `data` only), so capped per organization (MAX_MESSAGING_ACCOUNTS). */
  list(world: World): Promise<MessagingAccount[]> {
    // The response's columns, named, so a column added later is not read by the list.
    return this.accounts.find({
      select: {
        id: true,
        status: true,
        statusMessage: true,
        wabaId: true,
        phoneNumberId: true,
        displayPhoneNumber: true,
        verifiedName: true,
        qualityRating: true,
        messagesSent: true,
        messagesReceived: true,
        lastMessageAt: true,
        createdAt: true,
        livemode: true,
      },
      where: worldWhere(world),
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** Any organization's account: the admin API and provider callbacks are not bound to one organization. */
  async mustExist(id: string): Promise<MessagingAccount> {
    const account = await this.accounts.findOneBy({ id });
    if (!account) throw ApiError.notFound('Messaging account');
    return account;
  }

  /** The account a provider webhook is addressed to. */
  findByPhoneNumberId(phoneNumberId: string): Promise<MessagingAccount | null> {
    return this.accounts.findOneBy({ phoneNumberId });
  }

  async create(organizationId: string, dto: CreateMessagingAccountDto): Promise<MessagingAccount> {
    const accessTokenSealed = dto.accessToken ? this.credentials.seal(dto.accessToken) : null;
    try {
      return await inTransaction(this.dataSource, async (m) => {
        await assertBelowCap(m, ACCOUNT_CAP, organizationId);
        return m.save(
          m.create(MessagingAccount, {
            id: uuidv7(),
            organizationId,
            livemode: dto.livemode ?? true,
            status: dto.status ?? 'active',
            statusMessage: dto.statusMessage ?? null,
            wabaId: dto.wabaId ?? null,
            phoneNumberId: dto.phoneNumberId ?? null,
            displayPhoneNumber: dto.displayPhoneNumber,
            verifiedName: dto.verifiedName,
            qualityRating: dto.qualityRating ?? 'UNKNOWN',
            accessTokenSealed,
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.conflict('This phoneNumberId is already connected');
      throw error;
    }
  }

  listTemplates(accountId: string): Promise<MessagingTemplate[]> {
    return this.templates.find({ where: { accountId }, order: { name: 'ASC', language: 'ASC' } });
  }

  /** Sets (rotates) or clears the account's own access token; cleared, the process-wide token serves it. */
  async setAccessToken(id: string, token: string | null): Promise<MessagingAccount> {
    const account = await this.mustExist(id);
    account.accessTokenSealed = token ? this.credentials.seal(token) : null;
    await this.accounts.update({ id }, { accessTokenSealed: account.accessTokenSealed });
    return account;
  }

  /**
   * Replaces the account's templates with the provider's list in one transaction: bodies, languages, statuses
   * and components as the provider has them; templates it no longer lists are removed.
   */
  async replaceTemplates(accountId: string, all: ProviderTemplate[]): Promise<{ synced: number; removed: number }> {
    // One row per name and language (an upsert may not touch a row twice): the provider's last word wins.
    const listed = [...new Map(all.map((t) => [`${t.name}\n${t.language}`, t])).values()];
    return inTransaction(this.dataSource, async (m) => {
      const now = new Date();
      // In chunks: one statement's parameters are bounded (65,535), and a template takes nine.
      for (let i = 0; i < listed.length; i += TEMPLATE_WRITE_CHUNK) {
        await m
          .createQueryBuilder()
          .insert()
          .into(MessagingTemplate)
          .values(
            listed.slice(i, i + TEMPLATE_WRITE_CHUNK).map((t) => ({ id: uuidv7(), accountId, ...t, syncedAt: now })),
          )
          .orUpdate(
            ['status', 'body', 'components', 'provider_template_id', 'synced_at'],
            ['account_id', 'name', 'language'],
          )
          .execute();
      }
      const removed = await m
        .createQueryBuilder()
        .delete()
        .from(MessagingTemplate)
        .where('account_id = :accountId', { accountId })
        .andWhere(
          '(name, language) NOT IN (SELECT * FROM unnest(CAST(:names AS text[]), CAST(:languages AS text[])))',
          {
            names: listed.map((t) => t.name),
            languages: listed.map((t) => t.language),
          },
        )
        .execute();
      return { synced: listed.length, removed: removed.affected ?? 0 };
    });
  }

  /**
   * A provider's template status report, addressed by business account id and template name and language: every
   * account of that business account (or, for the process-wide one, the accounts without their own) follows it.
   */
  async setTemplateStatus(
    wabaId: string,
    processWide: boolean,
    name: string,
    language: string,
    status: TemplateStatus,
  ): Promise<number> {
    const result = await this.templates
      .createQueryBuilder()
      .update(MessagingTemplate)
      .set({ status, syncedAt: new Date() })
      .where('name = :name AND language = :language', { name, language })
      .andWhere(
        `account_id IN (SELECT id FROM messaging_accounts WHERE waba_id = :wabaId${processWide ? ' OR waba_id IS NULL' : ''})`,
        { wabaId },
      )
      .execute();
    return result.affected ?? 0;
  }

  /** The APPROVED templates of one of the world's accounts, by name and language; null when it is not one of them. */
  async approvedTemplatesOf(world: World, accountId: string): Promise<MessagingTemplate[] | null> {
    const account = await this.accounts.findOneBy({ id: accountId, ...worldWhere(world) });
    if (!account) return null;
    return this.templates.find({
      where: { accountId, status: 'APPROVED' },
      order: { name: 'ASC', language: 'ASC' },
      take: MAX_TEMPLATES_LISTED,
    });
  }

  /** An APPROVED template of that name and language on one of the organization's active accounts. */
  approvedTemplate(organizationId: string, name: string, language: string): Promise<MessagingTemplate | null> {
    return this.templates
      .createQueryBuilder('t')
      .innerJoin(MessagingAccount, 'a', 'a.id = t.accountId')
      .where('a.organizationId = :organizationId AND a.status = :active', { organizationId, active: 'active' })
      .andWhere('t.name = :name AND t.language = :language AND t.status = :approved', {
        name,
        language,
        approved: 'APPROVED',
      })
      .getOne();
  }

  async createTemplate(accountId: string, dto: CreateMessagingTemplateDto): Promise<MessagingTemplate> {
    await this.mustExist(accountId);
    try {
      return await this.templates.save(
        this.templates.create({
          id: uuidv7(),
          accountId,
          name: dto.name,
          language: dto.language,
          status: dto.status ?? 'APPROVED',
          body: dto.body,
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.conflict('This template already exists in this language');
      throw error;
    }
  }
}
