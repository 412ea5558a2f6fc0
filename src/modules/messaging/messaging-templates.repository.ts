import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingTemplate, TemplateStatus } from './messaging-template.entity';
import type { ProviderTemplate } from './providers/messaging-provider';

/** Templates written per statement: one statement's parameters are bounded (65,535), and a template takes nine. */
const TEMPLATE_WRITE_CHUNK = 1000;

/** The SQL of `messaging_templates`. */
@Injectable()
export class MessagingTemplatesRepository {
  constructor(@InjectRepository(MessagingTemplate) private readonly templates: Repository<MessagingTemplate>) {}

  /** The account's templates by name and language; only `APPROVED` ones, at most `limit`, when `approvedLimit`. */
  listOf(accountId: string, approvedLimit?: number): Promise<MessagingTemplate[]> {
    if (approvedLimit === undefined)
      return this.templates.find({ where: { accountId }, order: { name: 'ASC', language: 'ASC' } });
    return this.templates.find({
      where: { accountId, status: 'APPROVED' },
      order: { name: 'ASC', language: 'ASC' },
      take: approvedLimit,
    });
  }

  /**
   * Makes `listed` (one per name and language) the account's templates in `tx`: upserted, and the others removed.
   * Answers how many were removed.
   */
  async replace(tx: Tx, accountId: string, listed: ProviderTemplate[]): Promise<number> {
    const now = new Date();
    for (let i = 0; i < listed.length; i += TEMPLATE_WRITE_CHUNK) {
      await tx
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
    const removed = await tx
      .createQueryBuilder()
      .delete()
      .from(MessagingTemplate)
      .where('account_id = :accountId', { accountId })
      .andWhere('(name, language) NOT IN (SELECT * FROM unnest(CAST(:names AS text[]), CAST(:languages AS text[])))', {
        names: listed.map((t) => t.name),
        languages: listed.map((t) => t.language),
      })
      .execute();
    return removed.affected ?? 0;
  }

  /** Sets the status of a template on every account of the business account (and, `processWide`, those without one). */
  async setStatus(
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

  /** An APPROVED template of that name and language on one of the organization's active accounts. */
  approvedInOrganization(organizationId: string, name: string, language: string): Promise<MessagingTemplate | null> {
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

  insert(
    values: Pick<MessagingTemplate, 'accountId' | 'name' | 'language' | 'status' | 'body'>,
  ): Promise<MessagingTemplate> {
    return this.templates.save(this.templates.create({ id: uuidv7(), ...values }));
  }

  /** The account's APPROVED template of this name and language, or null. */
  findApproved(accountId: string, name: string, language: string): Promise<MessagingTemplate | null> {
    return this.templates.findOneBy({ accountId, name, language, status: 'APPROVED' });
  }
}
