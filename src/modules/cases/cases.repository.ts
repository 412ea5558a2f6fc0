import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ArrayContains, Repository, SelectQueryBuilder } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { Case } from './case.entity';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL of `cases`. */
@Injectable()
export class CasesRepository {
  constructor(@InjectRepository(Case) private readonly cases: Repository<Case>) {}

  /** The organization's cases, those whose title contains `search` when given, for keyset pagination (alias `c`). */
  listQuery(organizationId: string, search: string | undefined): SelectQueryBuilder<Case> {
    const qb = this.cases.createQueryBuilder('c').where('c.organizationId = :organizationId', { organizationId });
    if (search) qb.andWhere(`c.title ILIKE :pattern ESCAPE '\\'`, { pattern: `%${escapeLike(search)}%` });
    return qb;
  }

  find(organizationId: string, id: string): Promise<Case | null> {
    return this.cases.findOneBy({ id, organizationId });
  }

  /** The row as stored (its timestamps filled), inserted in `tx` with its first version. */
  async insert(
    tx: Tx,
    organizationId: string,
    fields: Omit<Case, 'id' | 'organizationId' | 'version' | 'createdAt' | 'updatedAt'>,
  ): Promise<Case> {
    const id = uuidv7();
    await tx.insert(Case, tx.create(Case, { id, organizationId, version: 1, ...fields }));
    return tx.findOneByOrFail(Case, { id });
  }

  /**
   * The organization's case locked until `tx` ends, `FOR SHARE` (`pessimistic_read`) or `FOR UPDATE`
   * (`pessimistic_write`); null when there is none. Without `organizationId`, any organization's case (admin API).
   */
  lock(
    tx: Tx,
    organizationId: string | null,
    id: string,
    lock: 'pessimistic_read' | 'pessimistic_write',
  ): Promise<Case | null> {
    const qb = tx.createQueryBuilder(Case, 'c').setLock(lock).where('c.id = :id', { id });
    if (organizationId !== null) qb.andWhere('c.organizationId = :organizationId', { organizationId });
    return qb.getOne();
  }

  /** Writes `fields` in `tx` (the row locked by it) and returns the row as stored. */
  async update(tx: Tx, id: string, fields: Partial<Case>): Promise<Case> {
    await tx.update(Case, { id }, fields);
    return tx.findOneByOrFail(Case, { id });
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.delete(Case, { id });
  }

  /** The organization's cases whose tool list holds `toolId`, counted in `tx`. */
  countUsingTool(tx: Tx, organizationId: string, toolId: string): Promise<number> {
    return tx.countBy(Case, { organizationId, toolIds: ArrayContains([toolId]) });
  }
}
