import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { CaseContent, contentOf } from './case-content';
import { CaseVersion } from './case-version.entity';

/** The SQL of `case_versions`: rows are inserted once and never updated. */
@Injectable()
export class CaseVersionsRepository {
  constructor(@InjectRepository(CaseVersion) private readonly versions: Repository<CaseVersion>) {}

  /** A case's versions for keyset pagination (alias `v`). */
  listQuery(organizationId: string, caseId: string): SelectQueryBuilder<CaseVersion> {
    return this.versions
      .createQueryBuilder('v')
      .where('v.organizationId = :organizationId AND v.caseId = :caseId', { organizationId, caseId });
  }

  /** Records `version` of the case with `content`, in the transaction that moved the case to it. */
  async insert(
    tx: Tx,
    target: { organizationId: string; caseId: string; version: number },
    content: CaseContent,
  ): Promise<void> {
    await tx.insert(CaseVersion, tx.create(CaseVersion, { id: uuidv7(), ...target, ...contentOf(content) }));
  }

  /** One version of the organization's case, or null. */
  find(m: EntityManager, organizationId: string, caseId: string, version: number): Promise<CaseVersion | null> {
    return m.findOneBy(CaseVersion, { organizationId, caseId, version });
  }

  async deleteOfCase(tx: Tx, caseId: string): Promise<void> {
    await tx.delete(CaseVersion, { caseId });
  }
}
