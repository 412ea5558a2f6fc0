import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DestinationRulesRow } from './destination-rules.entity';
import { DEFAULT_DESTINATION_RULES, DestinationRules } from './destination-rules';

/** The SQL of `destination_rules`. */
@Injectable()
export class DestinationRulesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(organizationId: string, manager: EntityManager = this.dataSource.manager): Promise<DestinationRules> {
    const row = await manager.findOneBy(DestinationRulesRow, { organizationId });
    if (!row) return { ...DEFAULT_DESTINATION_RULES };
    return {
      allowedCountries: row.allowedCountries,
      blockedPrefixes: row.blockedPrefixes,
      allowedClasses: row.allowedClasses,
    };
  }

  async save(organizationId: string, rules: DestinationRules): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO destination_rules (organization_id, allowed_countries, blocked_prefixes, allowed_classes, updated_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (organization_id) DO UPDATE
         SET allowed_countries = EXCLUDED.allowed_countries, blocked_prefixes = EXCLUDED.blocked_prefixes,
             allowed_classes = EXCLUDED.allowed_classes, updated_at = now()`,
      [organizationId, rules.allowedCountries, rules.blockedPrefixes, rules.allowedClasses],
    );
  }
}
