import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAt } from '../../common/entities/timestamps';
import type { DestinationClass } from './destination-ranges';

/**
 * An organization's destination rules (docs/contracts/destinations.md), for both of its worlds; an organization
 * without a row has the defaults (DEFAULT_DESTINATION_RULES).
 */
@Entity('destination_rules')
export class DestinationRulesRow {
  @PrimaryColumn('uuid') organizationId: string;
  /** Null: every country. */
  @Column('text', { array: true, nullable: true }) allowedCountries: string[] | null;
  @Column('text', { array: true, default: () => "'{}'" }) blockedPrefixes: string[];
  @Column('text', { array: true, default: () => "'{}'" }) allowedClasses: DestinationClass[];
  @UpdatedAt() updatedAt: Date;
}
