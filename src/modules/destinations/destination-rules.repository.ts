import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_DESTINATION_RULES, DestinationRules } from './destination-rules';

/** The SQL of `destination_rules`. */
@Injectable()
export class DestinationRulesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(organizationId: string, manager: EntityManager = this.dataSource.manager): Promise<DestinationRules> {
    // Hand-written: every call's creation reads them (see PhoneNumbersRepository.findByNumber).
    const [row]: Array<{ allowed_countries: string[] | null; blocked_prefixes: string[]; allowed_classes: string[] }> =
      await manager.query(
        'SELECT allowed_countries, blocked_prefixes, allowed_classes FROM destination_rules WHERE organization_id = $1',
        [organizationId],
      );
    if (!row) return { ...DEFAULT_DESTINATION_RULES };
    return {
      allowedCountries: row.allowed_countries,
      blockedPrefixes: row.blocked_prefixes,
      allowedClasses: row.allowed_classes as DestinationRules['allowedClasses'],
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
