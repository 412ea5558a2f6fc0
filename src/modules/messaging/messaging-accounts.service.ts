import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CreateMessagingAccountDto } from './dto/create-messaging-account.dto';
import { CreateMessagingTemplateDto } from './dto/create-messaging-template.dto';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingTemplate } from './messaging-template.entity';
import { isUniqueViolation } from '../../infra/database/pg-errors';
import { World, worldWhere } from '../../common/auth/world';

/**
 * The list is not paginated, so its length is capped (README limits table, OpenAPI): a business connects a few
 * numbers, not hundreds.
 */
export const MAX_MESSAGING_ACCOUNTS = 20;
const ACCOUNT_CAP: OrganizationCap<MessagingAccount> = {
  entity: MessagingAccount,
  max: MAX_MESSAGING_ACCOUNTS,
  lockSpace: 0x6d616363, // "macc"
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
    try {
      return await this.dataSource.transaction(async (m) => {
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
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.conflict('This phoneNumberId is already connected');
      throw error;
    }
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
