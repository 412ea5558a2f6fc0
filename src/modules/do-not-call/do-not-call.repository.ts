import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { queryEntities } from '../../infra/database/entity-rows';
import { DoNotCallEntry, DoNotCallSource } from './do-not-call-entry.entity';

/** The SQL of `do_not_call_entries`. */
@Injectable()
export class DoNotCallRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Lists the number unless it already is; returns the active listing either way. */
  async add(
    m: EntityManager,
    organizationId: string,
    entry: { number: string; reason: string | null; source: DoNotCallSource },
  ): Promise<{ entry: DoNotCallEntry; created: boolean }> {
    const [inserted] = await queryEntities(
      m,
      DoNotCallEntry,
      `INSERT INTO do_not_call_entries (id, organization_id, number, reason, source)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, number) WHERE removed_at IS NULL DO NOTHING RETURNING *`,
      [uuidv7(), organizationId, entry.number, entry.reason, entry.source],
    );
    if (inserted) return { entry: inserted, created: true };
    const existing = await m.findOneByOrFail(DoNotCallEntry, {
      organizationId,
      number: entry.number,
      removedAt: IsNull(),
    });
    return { entry: existing, created: false };
  }

  /** Lifts the active listing (kept as history); false when the number is not listed. */
  async remove(m: EntityManager, organizationId: string, number: string, by: DoNotCallSource): Promise<boolean> {
    const [, count]: [unknown, number] = await m.query(
      `UPDATE do_not_call_entries SET removed_at = now(), removed_by = $3
        WHERE organization_id = $1 AND number = $2 AND removed_at IS NULL`,
      [organizationId, number, by],
    );
    return count > 0;
  }

  /** Which of these numbers the organization's ledger lists now. */
  async listedAmong(m: EntityManager, organizationId: string, numbers: readonly string[]): Promise<Set<string>> {
    if (!numbers.length) return new Set();
    const rows: Array<{ number: string }> = await m.query(
      `SELECT number FROM do_not_call_entries
        WHERE organization_id = $1 AND number = ANY($2) AND removed_at IS NULL`,
      [organizationId, [...new Set(numbers)]],
    );
    return new Set(rows.map((r) => r.number));
  }

  activeQuery(organizationId: string) {
    return this.dataSource
      .getRepository(DoNotCallEntry)
      .createQueryBuilder('d')
      .where('d.organizationId = :organizationId AND d.removedAt IS NULL', { organizationId });
  }
}
