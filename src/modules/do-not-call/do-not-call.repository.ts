import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { queryEntities } from '../../infra/database/entity-rows';
import { DoNotCallEntry, DoNotCallSource } from './do-not-call-entry.entity';
import { World, worldParams, worldSql, worldWhere } from '../../common/auth/world';

/** The SQL of `do_not_call_entries`. */
@Injectable()
export class DoNotCallRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Lists the number unless it already is; returns the active listing either way. */
  async add(
    m: EntityManager,
    world: World,
    entry: { number: string; reason: string | null; source: DoNotCallSource },
  ): Promise<{ entry: DoNotCallEntry; created: boolean }> {
    const [inserted] = await queryEntities(
      m,
      DoNotCallEntry,
      `INSERT INTO do_not_call_entries (id, organization_id, livemode, number, reason, source)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, livemode, number) WHERE removed_at IS NULL DO NOTHING RETURNING *`,
      [uuidv7(), ...worldParams(world), entry.number, entry.reason, entry.source],
    );
    if (inserted) return { entry: inserted, created: true };
    const existing = await m.findOneByOrFail(DoNotCallEntry, {
      ...worldWhere(world),
      number: entry.number,
      removedAt: IsNull(),
    });
    return { entry: existing, created: false };
  }

  /** Lifts the active listing (kept as history); false when the number is not listed. */
  async remove(m: EntityManager, world: World, number: string, by: DoNotCallSource): Promise<boolean> {
    const [, count]: [unknown, number] = await m.query(
      `UPDATE do_not_call_entries SET removed_at = now(), removed_by = $2
        WHERE number = $1 AND ${worldSql(undefined, 3)} AND removed_at IS NULL`,
      [number, by, ...worldParams(world)],
    );
    return count > 0;
  }

  /** Which of these numbers the world's ledger lists now. */
  async listedAmong(m: EntityManager, world: World, numbers: readonly string[]): Promise<Set<string>> {
    if (!numbers.length) return new Set();
    const rows: Array<{ number: string }> = await m.query(
      `SELECT number FROM do_not_call_entries
        WHERE number = ANY($1) AND ${worldSql(undefined, 2)} AND removed_at IS NULL`,
      [[...new Set(numbers)], ...worldParams(world)],
    );
    return new Set(rows.map((r) => r.number));
  }

  activeQuery(world: World) {
    return this.dataSource
      .getRepository(DoNotCallEntry)
      .createQueryBuilder('d')
      .where(`${worldSql('d')} AND d.removedAt IS NULL`, worldWhere(world));
  }
}
