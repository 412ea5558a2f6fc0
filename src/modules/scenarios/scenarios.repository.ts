import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { World, worldSql, worldWhere } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { Scenario } from './scenario.entity';

/** The SQL of `scenarios`, every statement scoped to one world. */
@Injectable()
export class ScenariosRepository {
  constructor(@InjectRepository(Scenario) private readonly scenarios: Repository<Scenario>) {}

  /** The world's scenarios, of one case when given, for keyset pagination (alias `s`). */
  listQuery(world: World, caseId: string | undefined): SelectQueryBuilder<Scenario> {
    const qb = this.scenarios.createQueryBuilder('s').where(worldSql('s'), worldWhere(world));
    if (caseId) qb.andWhere('s.caseId = :caseId', { caseId });
    return qb;
  }

  find(world: World, id: string): Promise<Scenario | null> {
    return this.scenarios.findOneBy({ id, ...worldWhere(world) });
  }

  /** The world's scenarios of one case, oldest first (at most SCENARIO_BOUNDS.perCase). */
  ofCase(world: World, caseId: string): Promise<Scenario[]> {
    return this.scenarios.find({ where: { caseId, ...worldWhere(world) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  countOfCase(tx: Tx, world: World, caseId: string): Promise<number> {
    return tx.countBy(Scenario, { caseId, ...worldWhere(world) });
  }

  async insert(
    tx: Tx,
    world: World,
    fields: Pick<Scenario, 'caseId' | 'name' | 'variables' | 'turns' | 'expect'>,
  ): Promise<Scenario> {
    const id = uuidv7();
    // jsonb columns typed as our own shapes, which TypeORM's deep-partial type cannot follow.
    await tx.insert(Scenario, { id, ...worldWhere(world), ...fields } as QueryDeepPartialEntity<Scenario>);
    return tx.findOneByOrFail(Scenario, { id });
  }

  /** The world's scenario with the changes applied; null when the world has no such scenario. */
  async update(
    world: World,
    id: string,
    changes: Partial<Pick<Scenario, 'name' | 'variables' | 'turns' | 'expect'>>,
  ): Promise<Scenario | null> {
    if (Object.keys(changes).length) {
      // jsonb columns typed as our own shapes, which TypeORM's deep-partial type cannot follow.
      await this.scenarios.update({ id, ...worldWhere(world) }, changes as QueryDeepPartialEntity<Scenario>);
    }
    return this.find(world, id);
  }

  /** Whether the world had the scenario (and now does not). */
  async delete(world: World, id: string): Promise<boolean> {
    const result = await this.scenarios.delete({ id, ...worldWhere(world) });
    return (result.affected ?? 0) > 0;
  }
}
